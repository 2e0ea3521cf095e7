//! The host's side of the shell's protocol (`silica run-board`): a
//! [`Link`] (any readable and writable file descriptors: a serial port
//! opened with termios, or a pipe to the Verilator emulation), and a run
//! of the kernel through it: load the scalars and memories, start, poll
//! the status until done, read the results and memories back.
//!
//! A request whose reply is lost, garbled or refused with a bad checksum
//! or a timeout is sent again (at most [`TRIES`] times) after the line
//! has been quiet long enough for the shell to have given up the frame;
//! `start` is never repeated.

use super::protocol::{self as p, Reply};
use crate::model::interface::Interface;
use num_bigint::BigUint;
use std::io::{Read, Write};
use std::os::fd::AsFd;
use std::time::{Duration, Instant};

/// Tries of a request that is safe to repeat.
pub const TRIES: usize = 3;

/// Words per read-memory or write-memory frame.
pub const CHUNK_WORDS: usize = 256;

/// A byte stream to the shell.
pub struct Link<R: Read + AsFd, W: Write> {
    reader: R,
    writer: W,
    /// The line's rate (for timeouts).
    baud: u32,
    /// How long a reply may take beyond its bytes' time on the line.
    pub patience: Duration,
}

/// What went wrong talking to the shell.
#[derive(Debug)]
pub enum HostError {
    /// Reading or writing the line failed.
    Io(std::io::Error),
    /// No (complete) reply in time.
    NoReply(String),
    /// A reply that does not read (after the tries).
    Garbled(String),
    /// The shell refused the request.
    Refused(String),
    /// The inputs do not fit the kernel.
    Input(String),
}

impl std::fmt::Display for HostError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HostError::Io(e) => write!(f, "the serial line: {e}"),
            HostError::NoReply(m) | HostError::Garbled(m) | HostError::Refused(m) => {
                write!(f, "{m}")
            }
            HostError::Input(m) => write!(f, "the inputs: {m}"),
        }
    }
}

impl From<std::io::Error> for HostError {
    fn from(e: std::io::Error) -> Self {
        HostError::Io(e)
    }
}

/// A command's name, for messages.
fn command_name(c: u8) -> &'static str {
    match c {
        p::WRITE_MEMORY => "write-memory",
        p::READ_MEMORY => "read-memory",
        p::WRITE_SCALAR => "write-scalar",
        p::START => "start",
        p::STATUS => "status",
        p::READ_RESULT => "read-result",
        _ => "unknown",
    }
}

impl<R: Read + AsFd, W: Write> Link<R, W> {
    /// A link reading `reader` and writing `writer` at `baud`.
    pub fn new(reader: R, writer: W, baud: u32) -> Self {
        Link {
            reader,
            writer,
            baud,
            patience: Duration::from_secs(5),
        }
    }

    /// The time `bytes` take on the line.
    fn line_time(&self, bytes: usize) -> Duration {
        Duration::from_secs_f64(bytes as f64 * 10.0 / f64::from(self.baud))
    }

    /// Reads exactly `n` bytes before `deadline`.
    fn read_exact_by(&mut self, n: usize, deadline: Instant) -> Result<Vec<u8>, HostError> {
        let mut out = vec![0u8; n];
        let mut got = 0;
        while got < n {
            let now = Instant::now();
            if now >= deadline {
                return Err(HostError::NoReply(format!(
                    "{got} of {n} reply bytes came in time"
                )));
            }
            let left = deadline - now;
            let ts = rustix::event::Timespec {
                tv_sec: left.as_secs() as i64,
                tv_nsec: i64::from(left.subsec_nanos()),
            };
            let mut fds = [rustix::event::PollFd::new(
                &self.reader,
                rustix::event::PollFlags::IN,
            )];
            match rustix::event::poll(&mut fds, Some(&ts)) {
                Ok(0) => continue,
                Ok(_) => {}
                Err(rustix::io::Errno::INTR) => continue,
                Err(e) => return Err(HostError::Io(e.into())),
            }
            let k = self.reader.read(&mut out[got..])?;
            if k == 0 {
                return Err(HostError::NoReply(format!(
                    "the line closed after {got} of {n} reply bytes"
                )));
            }
            got += k;
        }
        Ok(out)
    }

    /// Discards what arrives until the line has been quiet for the
    /// shell's frame timeout (so that the shell is waiting for a header).
    fn resynchronise(&mut self) -> Result<(), HostError> {
        let quiet = self.line_time(p::TIMEOUT_BYTE_TIMES as usize) * 2;
        loop {
            match self.read_exact_by(1, Instant::now() + quiet) {
                Ok(_) => {}
                Err(HostError::NoReply(_)) => return Ok(()),
                Err(e) => return Err(e),
            }
        }
    }

    /// Sends one request and reads its reply (`reply_words` words of
    /// `word_bytes` bytes on success).
    fn exchange(
        &mut self,
        frame: &[u8],
        word_bytes: usize,
        count: usize,
    ) -> Result<Reply, HostError> {
        let command = frame[0];
        self.writer.write_all(frame)?;
        self.writer.flush()?;
        let payload = p::reply_payload_bytes(command, word_bytes, count);
        let deadline = Instant::now()
            + self.patience
            + self.line_time(frame.len() + payload + 3)
            + self.line_time(p::TIMEOUT_BYTE_TIMES as usize);
        let head = self.read_exact_by(2, deadline)?;
        let rest = if head[0] == p::OK { payload + 1 } else { 1 };
        let mut bytes = head;
        bytes.extend(self.read_exact_by(rest, deadline)?);
        p::decode_reply(command, &bytes).map_err(|e| HostError::Garbled(e.to_string()))
    }

    /// A request, repeated on a lost or garbled reply when `repeatable`;
    /// gives the payload of the successful reply.
    pub fn request(
        &mut self,
        frame: &[u8],
        word_bytes: usize,
        count: usize,
        repeatable: bool,
    ) -> Result<Vec<u8>, HostError> {
        let command = frame[0];
        let tries = if repeatable { TRIES } else { 1 };
        let mut last = String::new();
        for _ in 0..tries {
            match self.exchange(frame, word_bytes, count) {
                Ok(Reply::Ok(payload)) => return Ok(payload),
                Ok(Reply::Refused(s)) if s != p::BAD_CHECKSUM && s != p::TIMEOUT => {
                    return Err(HostError::Refused(format!(
                        "the shell refused {}: {} (status 0x{s:02x})",
                        command_name(command),
                        p::status_name(s)
                    )))
                }
                Ok(Reply::Refused(s)) => last = p::status_name(s).to_string(),
                Err(HostError::NoReply(m) | HostError::Garbled(m)) => last = m,
                Err(e) => return Err(e),
            }
            self.resynchronise()?;
        }
        Err(HostError::Garbled(format!(
            "{} failed {tries} time(s), last: {last}",
            command_name(command)
        )))
    }

    /// The status: (flags, cycles).
    pub fn status(&mut self) -> Result<(u8, u32), HostError> {
        let r = self.request(&p::request(p::STATUS, 0, 0, 0, &[]), 0, 0, true)?;
        Ok((r[0], u32::from_le_bytes([r[1], r[2], r[3], r[4]])))
    }
}

/// Splits little-endian words of `bytes` bytes each.
fn words_of(payload: &[u8], bytes: usize) -> Vec<BigUint> {
    payload.chunks(bytes).map(BigUint::from_bytes_le).collect()
}

/// What a run on the board gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardRun {
    /// Per memory argument, its words after the run.
    pub memories: Vec<Vec<BigUint>>,
    /// The scalar results.
    pub results: Vec<BigUint>,
    /// Cycles from start to done, counted by the shell.
    pub cycles: u64,
}

/// Runs the kernel of `iface` on the shell behind `link` with `args`
/// (per argument, its words; `None` for a memory not to load), polling
/// the status until done for at most `run_limit`.
pub fn run<R: Read + AsFd, W: Write>(
    link: &mut Link<R, W>,
    iface: &Interface,
    args: &[Option<Vec<BigUint>>],
    run_limit: Duration,
) -> Result<BoardRun, HostError> {
    let (flags, _) = link.status()?;
    if flags & p::FLAG_IDLE == 0 {
        return Err(HostError::Refused(
            "the core is running (reset the board)".into(),
        ));
    }
    for (i, (arg, s)) in iface.scalars().enumerate() {
        let v = args
            .get(arg.index)
            .and_then(|a| a.as_ref())
            .and_then(|w| w.first())
            .ok_or_else(|| HostError::Input(format!("no value for '{}'", arg.name)))?;
        let payload = p::encode_word(v, s.width);
        link.request(
            &p::request(p::WRITE_SCALAR, i as u8, 0, 0, &payload),
            0,
            0,
            true,
        )?;
    }
    for (i, (arg, m)) in iface.memories().enumerate() {
        let Some(Some(words)) = args.get(arg.index) else {
            continue;
        };
        for (c, chunk) in words.chunks(CHUNK_WORDS).enumerate() {
            let payload: Vec<u8> = chunk
                .iter()
                .flat_map(|w| p::encode_word(w, m.element_width))
                .collect();
            let address = (c * CHUNK_WORDS) as u32;
            let frame = p::request(
                p::WRITE_MEMORY,
                i as u8,
                address,
                chunk.len() as u16,
                &payload,
            );
            link.request(&frame, 0, 0, true)?;
        }
    }
    link.request(&p::request(p::START, 0, 0, 0, &[]), 0, 0, false)?;
    let began = Instant::now();
    let cycles = loop {
        let (flags, cycles) = link.status()?;
        if flags & p::FLAG_DONE != 0 {
            break u64::from(cycles);
        }
        if began.elapsed() > run_limit {
            return Err(HostError::NoReply(format!(
                "the core is not done after {:.1} s ({cycles} cycles)",
                run_limit.as_secs_f64()
            )));
        }
        std::thread::sleep(Duration::from_millis(1));
    };
    let mut results = Vec::new();
    for (i, r) in iface.results.iter().enumerate() {
        let b = p::word_bytes(r.width);
        let payload = link.request(&p::request(p::READ_RESULT, i as u8, 0, 0, &[]), b, 1, true)?;
        results.push(BigUint::from_bytes_le(&payload));
    }
    let mut memories = Vec::new();
    for (i, (_, m)) in iface.memories().enumerate() {
        let b = p::word_bytes(m.element_width);
        let mut words = Vec::new();
        let mut address = 0u64;
        while address < m.words {
            let n = (m.words - address).min(CHUNK_WORDS as u64) as usize;
            let frame = p::request(p::READ_MEMORY, i as u8, address as u32, n as u16, &[]);
            let payload = link.request(&frame, b, n, true)?;
            words.extend(words_of(&payload, b));
            address += n as u64;
        }
        memories.push(words);
    }
    Ok(BoardRun {
        memories,
        results,
        cycles,
    })
}
