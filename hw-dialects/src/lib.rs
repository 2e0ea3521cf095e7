//! Circuit-level dialects (hw, comb, seq); empty until their issue.
