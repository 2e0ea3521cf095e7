//! C types, read from the spellings clang gives them in its dump
//! (`unsigned short`, `DATA_TYPE (*)[20]`, `const double *restrict`,
//! `int (int, double *)`), typedef names resolved through the
//! translation unit's typedefs, and their MLIR types. Sizes and
//! signedness are those of clang's x86-64 Linux target: `char` is
//! signed, `long` 64 bits.

use std::collections::HashMap;

/// A C type, qualifiers dropped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CType {
    Void,
    Bool,
    Int {
        bits: u32,
        signed: bool,
    },
    /// `float` (32) or `double` (64).
    Float(u32),
    Pointer(Box<CType>),
    /// An array and its size (`None`: `[]` or a variable length).
    Array(Box<CType>, Option<u64>),
    Function,
    /// Anything else silica does not take (structs, unions,
    /// `long double`, complex and vector types), as spelled.
    Other(String),
}

/// The typedefs of a translation unit: name to the spelling of its type.
pub type Typedefs = HashMap<String, String>;

impl CType {
    /// The type clang spells `text`.
    pub fn parse(text: &str, typedefs: &Typedefs) -> CType {
        Parser::new(text, typedefs, 0).type_name()
    }

    /// Whether this is an integer type (`_Bool` included).
    pub fn is_integer(&self) -> bool {
        matches!(self, CType::Int { .. } | CType::Bool)
    }

    /// Whether this is an integer or floating type.
    pub fn is_scalar(&self) -> bool {
        matches!(self, CType::Int { .. } | CType::Bool | CType::Float(_))
    }

    /// Whether values of this type are unsigned (`_Bool` is).
    pub fn is_unsigned(&self) -> bool {
        matches!(self, CType::Int { signed: false, .. } | CType::Bool)
    }

    /// The bits of a scalar.
    pub fn bits(&self) -> u32 {
        match self {
            CType::Bool => 1,
            CType::Int { bits, .. } | CType::Float(bits) => *bits,
            _ => 64,
        }
    }

    /// The MLIR type of a scalar (`i32`, `i1`, `f64`).
    pub fn mlir(&self) -> Option<String> {
        match self {
            CType::Bool => Some("i1".into()),
            CType::Int { bits, .. } => Some(format!("i{bits}")),
            CType::Float(32) => Some("f32".into()),
            CType::Float(64) => Some("f64".into()),
            _ => None,
        }
    }

    /// The element type and sizes of an array type, innermost last
    /// (`double[20][30]`: `double`, `[Some(20), Some(30)]`).
    pub fn array_shape(&self) -> (&CType, Vec<Option<u64>>) {
        let mut dims = Vec::new();
        let mut t = self;
        while let CType::Array(elem, n) = t {
            dims.push(*n);
            t = elem;
        }
        (t, dims)
    }

    /// The size of an object of this type in bytes, where known.
    pub fn size_of(&self) -> Option<u64> {
        match self {
            CType::Bool => Some(1),
            CType::Int { bits, .. } | CType::Float(bits) => Some(u64::from(*bits) / 8),
            CType::Pointer(_) => Some(8),
            CType::Array(elem, Some(n)) => elem.size_of()?.checked_mul(*n),
            _ => None,
        }
    }

    /// The type as C spells it in a declaration without a name, for the
    /// scalars the host side declares (`unsigned short`).
    pub fn c_spelling(&self) -> String {
        match self {
            CType::Void => "void".into(),
            CType::Bool => "_Bool".into(),
            CType::Int { bits, signed } => {
                let base = match bits {
                    8 => "char",
                    16 => "short",
                    32 => "int",
                    _ => "long long",
                };
                match (signed, *bits) {
                    (true, 8) => "signed char".into(),
                    (true, _) => base.into(),
                    (false, _) => format!("unsigned {base}"),
                }
            }
            CType::Float(32) => "float".into(),
            CType::Float(_) => "double".into(),
            _ => "void *".into(),
        }
    }
}

/// Typedefs nest; a cycle cannot occur in valid C, but a depth bound
/// keeps a malformed dump from recursing forever.
const MAX_TYPEDEF_DEPTH: u32 = 64;

struct Parser<'a> {
    tokens: Vec<String>,
    pos: usize,
    typedefs: &'a Typedefs,
    depth: u32,
}

fn tokenize(text: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c.is_alphanumeric() || c == '_' {
            let mut word = String::new();
            while let Some(&c) = chars.peek() {
                if c.is_alphanumeric() || c == '_' {
                    word.push(c);
                    chars.next();
                } else {
                    break;
                }
            }
            tokens.push(word);
        } else {
            tokens.push(c.to_string());
            chars.next();
        }
    }
    tokens
}

const QUALIFIERS: [&str; 7] = [
    "const",
    "volatile",
    "restrict",
    "__restrict",
    "_Atomic",
    "static",
    "_Nonnull",
];

impl<'a> Parser<'a> {
    fn new(text: &str, typedefs: &'a Typedefs, depth: u32) -> Self {
        Parser {
            tokens: tokenize(text),
            pos: 0,
            typedefs,
            depth,
        }
    }

    fn peek(&self) -> Option<&str> {
        self.tokens.get(self.pos).map(String::as_str)
    }

    fn eat(&mut self, t: &str) -> bool {
        if self.peek() == Some(t) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn type_name(&mut self) -> CType {
        let base = self.specifiers();
        self.declarator(base)
    }

    /// The specifiers and qualifiers before the declarator.
    fn specifiers(&mut self) -> CType {
        let mut words: Vec<String> = Vec::new();
        while let Some(t) = self.peek() {
            if !t.starts_with(|c: char| c.is_alphabetic() || c == '_') {
                break;
            }
            let t = t.to_string();
            self.pos += 1;
            if QUALIFIERS.contains(&t.as_str()) {
                continue;
            }
            if matches!(t.as_str(), "struct" | "union" | "enum") {
                // The tag and whatever clang writes for an unnamed one.
                let mut spelled = t.clone();
                if self.eat("(") {
                    let mut depth = 1;
                    while depth > 0 && self.peek().is_some() {
                        if self.eat("(") {
                            depth += 1;
                        } else if self.eat(")") {
                            depth -= 1;
                        } else {
                            self.pos += 1;
                        }
                    }
                    spelled.push_str(" (unnamed)");
                } else if let Some(tag) = self.peek().map(str::to_string) {
                    self.pos += 1;
                    spelled.push(' ');
                    spelled.push_str(&tag);
                }
                return if t == "enum" {
                    // Enumerations are `unsigned int` unless a value is
                    // negative; clang converts them before arithmetic.
                    CType::Int {
                        bits: 32,
                        signed: false,
                    }
                } else {
                    CType::Other(spelled)
                };
            }
            words.push(t);
        }
        base_type(&words, self.typedefs, self.depth)
    }

    fn declarator(&mut self, base: CType) -> CType {
        let mut t = base;
        while self.eat("*") {
            t = CType::Pointer(Box::new(t));
            while self.peek().is_some_and(|q| QUALIFIERS.contains(&q)) {
                self.pos += 1;
            }
        }
        self.direct(t)
    }

    fn direct(&mut self, base: CType) -> CType {
        let nested = self.peek() == Some("(")
            && matches!(
                self.tokens.get(self.pos + 1).map(String::as_str),
                Some("*" | "(" | "^")
            );
        if nested {
            // `T (*)[20]`: the suffixes after the parentheses apply to
            // T first, then the declarator inside them.
            self.pos += 1;
            let inner_start = self.pos;
            let mut depth = 1;
            while depth > 0 && self.peek().is_some() {
                if self.eat("(") {
                    depth += 1;
                } else if self.eat(")") {
                    depth -= 1;
                } else {
                    self.pos += 1;
                }
            }
            let inner_end = self.pos - 1;
            let outer = self.suffixes(base);
            let mut inner = Parser {
                tokens: self.tokens[inner_start..inner_end].to_vec(),
                pos: 0,
                typedefs: self.typedefs,
                depth: self.depth,
            };
            return inner.declarator(outer);
        }
        self.suffixes(base)
    }

    fn suffixes(&mut self, base: CType) -> CType {
        let mut arrays: Vec<Option<u64>> = Vec::new();
        let mut function = false;
        loop {
            if self.eat("[") {
                let mut words = Vec::new();
                while let Some(t) = self.peek() {
                    if t == "]" {
                        break;
                    }
                    words.push(t.to_string());
                    self.pos += 1;
                }
                self.eat("]");
                words.retain(|w| !QUALIFIERS.contains(&w.as_str()));
                let size = match words.as_slice() {
                    [n] => n.parse::<u64>().ok(),
                    _ => None,
                };
                arrays.push(size);
            } else if self.eat("(") {
                let mut depth = 1;
                while depth > 0 && self.peek().is_some() {
                    if self.eat("(") {
                        depth += 1;
                    } else if self.eat(")") {
                        depth -= 1;
                    } else {
                        self.pos += 1;
                    }
                }
                function = true;
            } else {
                break;
            }
        }
        if function {
            return CType::Function;
        }
        arrays
            .into_iter()
            .rev()
            .fold(base, |t, n| CType::Array(Box::new(t), n))
    }
}

/// The type a list of specifier words names.
fn base_type(words: &[String], typedefs: &Typedefs, depth: u32) -> CType {
    let has = |w: &str| words.iter().any(|x| x == w);
    let count = |w: &str| words.iter().filter(|x| *x == w).count();
    let known = [
        "signed", "unsigned", "char", "short", "int", "long", "float", "double", "void", "_Bool",
        "bool", "__int128",
    ];
    if let [name] = words {
        if !known.contains(&name.as_str()) {
            return match typedefs.get(name) {
                Some(spelling) if depth < MAX_TYPEDEF_DEPTH => {
                    Parser::new(spelling, typedefs, depth + 1).type_name()
                }
                _ => CType::Other(name.clone()),
            };
        }
    }
    if words.iter().any(|w| !known.contains(&w.as_str())) || words.is_empty() {
        return CType::Other(words.join(" "));
    }
    let signed = !has("unsigned");
    if has("void") {
        return CType::Void;
    }
    if has("_Bool") || has("bool") {
        return CType::Bool;
    }
    if has("float") {
        return CType::Float(32);
    }
    if has("double") {
        return if has("long") {
            CType::Other("long double".into())
        } else {
            CType::Float(64)
        };
    }
    if has("__int128") {
        return CType::Int { bits: 128, signed };
    }
    let bits = if has("char") {
        8
    } else if has("short") {
        16
    } else if count("long") > 0 {
        64
    } else {
        32
    };
    CType::Int { bits, signed }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> CType {
        let mut typedefs = Typedefs::new();
        typedefs.insert("DATA_TYPE".into(), "double".into());
        typedefs.insert("uint8_t".into(), "unsigned char".into());
        typedefs.insert("row".into(), "DATA_TYPE[4]".into());
        CType::parse(s, &typedefs)
    }

    fn int(bits: u32, signed: bool) -> CType {
        CType::Int { bits, signed }
    }

    #[test]
    fn scalars() {
        assert_eq!(t("int"), int(32, true));
        assert_eq!(t("unsigned int"), int(32, false));
        assert_eq!(t("unsigned"), int(32, false));
        assert_eq!(t("long"), int(64, true));
        assert_eq!(t("unsigned long long"), int(64, false));
        assert_eq!(t("short"), int(16, true));
        assert_eq!(t("unsigned short"), int(16, false));
        assert_eq!(t("char"), int(8, true));
        assert_eq!(t("const unsigned char"), int(8, false));
        assert_eq!(t("_Bool"), CType::Bool);
        assert_eq!(t("float"), CType::Float(32));
        assert_eq!(t("const DATA_TYPE"), CType::Float(64));
        assert_eq!(t("uint8_t"), int(8, false));
        assert!(matches!(t("long double"), CType::Other(_)));
        assert!(matches!(t("struct point"), CType::Other(_)));
    }

    #[test]
    fn declarators() {
        let d = CType::Float(64);
        let arr = |t: CType, n| CType::Array(Box::new(t), Some(n));
        let ptr = |t: CType| CType::Pointer(Box::new(t));
        assert_eq!(t("double (*)[20]"), ptr(arr(d.clone(), 20)));
        assert_eq!(t("DATA_TYPE[20][30]"), arr(arr(d.clone(), 30), 20));
        assert_eq!(t("DATA_TYPE *restrict"), ptr(d.clone()));
        assert_eq!(t("const double *const"), ptr(d.clone()));
        assert_eq!(t("row *"), ptr(arr(d.clone(), 4)));
        assert_eq!(t("int *[3]"), arr(ptr(int(32, true)), 3));
        assert_eq!(t("int (*)(int, double *)"), ptr(CType::Function));
        assert_eq!(t("void (int)"), CType::Function);
        assert_eq!(
            t("double (*)[n]"),
            ptr(CType::Array(Box::new(d.clone()), None))
        );
        assert_eq!(
            t("int[20][30]").array_shape(),
            (&int(32, true), vec![Some(20), Some(30)])
        );
        assert_eq!(t("double[20][30]").size_of(), Some(4800));
    }
}
