//! The board shell's serial protocol, shared by the shell's circuit
//! (`circuit`) and the host's client (`host`): command and status codes,
//! the frame layout, the checksum, and encoding requests and decoding
//! replies on the host side. `docs/BOARD-SHELL.md` is its description for
//! a person.
//!
//! A request is an 8-byte header — command, target, address (`u32`,
//! little-endian), count (`u16`, little-endian) — then a payload (only
//! for write-memory and write-scalar), then one checksum byte that makes
//! the sum of every byte of the frame 0 modulo 256. A reply is a status
//! byte, the command echoed, a payload (only on success, for read-memory,
//! read-result and status) and the same kind of checksum. Words travel
//! least significant byte first, in `ceil(width / 8)` bytes.

/// Writes `count` words from `address` into memory `target`.
pub const WRITE_MEMORY: u8 = 0x01;
/// Reads `count` words from `address` of memory `target`.
pub const READ_MEMORY: u8 = 0x02;
/// Sets scalar argument `target` (applied when the checksum is right).
pub const WRITE_SCALAR: u8 = 0x03;
/// Starts the core (which must be idle).
pub const START: u8 = 0x04;
/// The core's state and the cycles of the last (or current) run.
pub const STATUS: u8 = 0x05;
/// Reads scalar result `target`.
pub const READ_RESULT: u8 = 0x06;

/// Reply status: done.
pub const OK: u8 = 0x00;
/// The frame's bytes do not sum to 0.
pub const BAD_CHECKSUM: u8 = 0x01;
/// An unknown command byte.
pub const BAD_COMMAND: u8 = 0x02;
/// No memory, scalar or result has that number.
pub const BAD_TARGET: u8 = 0x03;
/// A count of 0, or words past the memory's end.
pub const BAD_RANGE: u8 = 0x04;
/// The core is running (memories and scalars are its own until done).
pub const BUSY: u8 = 0x05;
/// The line went idle in the middle of a frame.
pub const TIMEOUT: u8 = 0x06;

/// Header bytes of a request.
pub const HEADER_BYTES: usize = 8;

/// The status reply's payload bytes: flags, then the cycle count.
pub const STATUS_BYTES: usize = 5;
/// Status flag: the core is idle (waiting for start).
pub const FLAG_IDLE: u8 = 0x01;
/// Status flag: the last run has finished (results are final).
pub const FLAG_DONE: u8 = 0x02;

/// Byte times of silence in the middle of a frame after which the shell
/// gives the frame up (and answers `TIMEOUT`); also how long it discards
/// the rest of a frame whose header it refused before answering.
pub const TIMEOUT_BYTE_TIMES: u64 = 256;

/// Bytes of a word of `width` bits.
pub fn word_bytes(width: u32) -> usize {
    width.div_ceil(8).max(1) as usize
}

/// The byte that makes `bytes` sum to 0 modulo 256.
pub fn checksum(bytes: &[u8]) -> u8 {
    bytes
        .iter()
        .fold(0u8, |s, &b| s.wrapping_add(b))
        .wrapping_neg()
}

/// A request frame (header, payload, checksum).
pub fn request(command: u8, target: u8, address: u32, count: u16, payload: &[u8]) -> Vec<u8> {
    let mut f = vec![command, target];
    f.extend(address.to_le_bytes());
    f.extend(count.to_le_bytes());
    f.extend(payload);
    f.push(checksum(&f));
    f
}

/// A word's bytes, least significant first.
pub fn encode_word(word: &num_bigint::BigUint, width: u32) -> Vec<u8> {
    let mut b = word.to_bytes_le();
    b.resize(word_bytes(width), 0);
    b
}

/// What the shell answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// Success, with the payload.
    Ok(Vec<u8>),
    /// A status other than [`OK`].
    Refused(u8),
}

/// Why a reply could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplyError {
    /// The reply echoes another command.
    WrongCommand { sent: u8, echoed: u8 },
    /// The reply's bytes do not sum to 0.
    Checksum,
}

impl std::fmt::Display for ReplyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReplyError::WrongCommand { sent, echoed } => write!(
                f,
                "the reply echoes command 0x{echoed:02x}, not 0x{sent:02x}"
            ),
            ReplyError::Checksum => write!(f, "the reply's checksum is wrong"),
        }
    }
}

/// The payload bytes a successful reply to `command` carries, given the
/// word size and count of the request.
pub fn reply_payload_bytes(command: u8, word_bytes: usize, count: usize) -> usize {
    match command {
        READ_MEMORY => word_bytes * count,
        READ_RESULT => word_bytes,
        STATUS => STATUS_BYTES,
        _ => 0,
    }
}

/// Decodes a complete reply (`bytes`: status, command, payload when the
/// status is OK, checksum) to `command`.
pub fn decode_reply(command: u8, bytes: &[u8]) -> Result<Reply, ReplyError> {
    if bytes.len() < 3 {
        return Err(ReplyError::Checksum);
    }
    if bytes[1] != command {
        return Err(ReplyError::WrongCommand {
            sent: command,
            echoed: bytes[1],
        });
    }
    if checksum(bytes) != 0 {
        return Err(ReplyError::Checksum);
    }
    Ok(match bytes[0] {
        OK => Reply::Ok(bytes[2..bytes.len() - 1].to_vec()),
        s => Reply::Refused(s),
    })
}

/// A status code's meaning.
pub fn status_name(status: u8) -> &'static str {
    match status {
        OK => "ok",
        BAD_CHECKSUM => "bad checksum",
        BAD_COMMAND => "unknown command",
        BAD_TARGET => "no such memory, scalar or result",
        BAD_RANGE => "words out of range",
        BUSY => "the core is running",
        TIMEOUT => "the frame stopped short",
        _ => "unknown status",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_sum_to_zero() {
        let f = request(WRITE_MEMORY, 1, 0x0102_0304, 2, &[9, 8, 7, 6]);
        assert_eq!(&f[..8], &[1, 1, 4, 3, 2, 1, 2, 0]);
        assert_eq!(f.iter().fold(0u8, |s, &b| s.wrapping_add(b)), 0);
    }

    #[test]
    fn replies_decode() {
        let mut r = vec![OK, READ_RESULT, 0x34, 0x12];
        r.push(checksum(&r));
        assert_eq!(
            decode_reply(READ_RESULT, &r),
            Ok(Reply::Ok(vec![0x34, 0x12]))
        );
        let mut e = vec![BUSY, START];
        e.push(checksum(&e));
        assert_eq!(decode_reply(START, &e), Ok(Reply::Refused(BUSY)));
        assert_eq!(
            decode_reply(STATUS, &e),
            Err(ReplyError::WrongCommand {
                sent: STATUS,
                echoed: START
            })
        );
        e[2] ^= 1;
        assert_eq!(decode_reply(START, &e), Err(ReplyError::Checksum));
    }

    #[test]
    fn words_are_little_endian() {
        let w = num_bigint::BigUint::from(0x01_0203_u32);
        assert_eq!(encode_word(&w, 20), vec![3, 2, 1]);
        assert_eq!(encode_word(&w, 32), vec![3, 2, 1, 0]);
        assert_eq!(word_bytes(1), 1);
    }
}
