//! The target a design is built for, resolved once from `--target`
//! ([`Target`]): the device (`device`: its capacity, package and its
//! family's fabric as data) and the device's measured operator library
//! (`library`). Nothing after resolution looks a target up by name.

pub mod device;
pub mod library;
pub mod rams;

use device::Device;
use library::Library;
use std::sync::Arc;

/// A resolved target: its device and operator library, shared (a clone
/// is a reference count).
#[derive(Clone, Debug)]
pub struct Target {
    library: Arc<Library>,
}

impl Target {
    /// The target `--target` names (a device, or a family alias for its
    /// first part) with its bundled library.
    pub fn named(name: &str) -> Result<Target, String> {
        Library::for_target(name).map(Target::with_library)
    }

    /// The target whose device and figures `library` gives (a library
    /// `silica characterize` just measured).
    pub fn with_library(library: Library) -> Target {
        Target {
            library: Arc::new(library),
        }
    }

    /// The device.
    pub fn device(&self) -> &'static Device {
        self.library.device
    }

    /// The device's measured operator library.
    pub fn library(&self) -> &Library {
        &self.library
    }

    /// The clock period (ns) a design is asked to run at where neither
    /// `--clock-ns` nor the directives file gives one: its library's
    /// (`library::DEFAULT_CLOCK_NS`).
    pub fn default_clock_ns(&self) -> f64 {
        self.library.default_clock_ns
    }
}
