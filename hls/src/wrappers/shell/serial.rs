//! Serial ports for `silica run-board`: a tty opened with std and
//! configured through termios (rustix, no system library): raw, 8 data
//! bits, no parity, one stop bit, no flow control, at the shell's rate.
//! A pseudo-terminal pair (`pty_pair`) lets the emulator stand in for a
//! board behind the same code.

use rustix::termios::{self, ControlModes, OptionalActions, QueueSelector};
use std::fs::{File, OpenOptions};
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

/// Puts the terminal `fd` in raw 8N1 mode at `baud`, discarding what
/// waits in its queues.
pub fn configure(fd: impl AsFd, baud: u32) -> std::io::Result<()> {
    let mut t = termios::tcgetattr(&fd)?;
    t.make_raw();
    t.set_speed(baud)?;
    t.control_modes -=
        ControlModes::CSIZE | ControlModes::CSTOPB | ControlModes::PARENB | ControlModes::CRTSCTS;
    t.control_modes |= ControlModes::CS8 | ControlModes::CREAD | ControlModes::CLOCAL;
    termios::tcsetattr(&fd, OptionalActions::Now, &t)?;
    termios::tcflush(&fd, QueueSelector::IOFlush)?;
    Ok(())
}

/// Opens the serial port `path` (not as the controlling terminal) and
/// configures it for `baud`.
pub fn open(path: &Path, baud: u32) -> Result<File, String> {
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(rustix::fs::OFlags::NOCTTY.bits() as i32)
        .open(path)
        .map_err(|e| format!("cannot open the serial port {}: {e}", path.display()))?;
    configure(&file, baud)
        .map_err(|e| format!("cannot configure the serial port {}: {e}", path.display()))?;
    Ok(file)
}

/// A pseudo-terminal: its master side, and the path of its slave side.
pub fn pty_pair() -> std::io::Result<(OwnedFd, PathBuf)> {
    use rustix::pty::{grantpt, openpt, ptsname, unlockpt, OpenptFlags};
    let master = openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY)?;
    grantpt(&master)?;
    unlockpt(&master)?;
    let name = ptsname(&master, Vec::new())?;
    let path = PathBuf::from(std::ffi::OsStr::from_bytes(name.as_bytes()));
    Ok((master, path))
}
