//! The AXI4-Lite slave `s_axi_control` and the registers of the map.
//!
//! A write is taken when `awvalid` and `wvalid` are both high and no
//! response is pending (`awready` = `wready` = that condition); it
//! acts at that edge, byte lanes by `wstrb`, on the register whose
//! offset equals `awaddr` (other addresses are ignored), and `bvalid`
//! (OKAY) stays high until `bready`. A read is taken when `arvalid` is
//! high and no data is pending (`arready` = `!rvalid`); `rdata` (OKAY;
//! zero for an address that is no register) stays until `rready`.
//! Control: writing bit 0 set sets `ap_start` (writing 0 does nothing),
//! bit 7 sets or clears `auto_restart`; `ap_done` and `ap_ready` are set
//! when a run is over and cleared by a read of the control register.
//! `ISR` bits are set when a run is over if enabled in `IER`, and
//! toggled by writing ones; `irq` is `GIE & (ISR[0] | ISR[1])`.

use super::engine::Engine;
use super::ports::{lite, INTERRUPT};
use super::wrapper::Wrapper;
use crate::flow::construct::hw::Reg;
use crate::model::register_map::{bits, RegisterKind, CONTROL, GIE, IER, ISR};
use silica_ir::ValueId;

/// The slave's registers.
pub(super) struct Lite {
    pub ap_start: Reg,
    ap_done: Reg,
    ap_ready: Reg,
    pub auto_restart: Reg,
    gie: Reg,
    ier: Reg,
    isr: Reg,
    /// Per register of the map, its words (none for a result).
    words: Vec<Vec<Reg>>,
    bvalid: Reg,
    rvalid: Reg,
    rdata: Reg,
}

impl Lite {
    /// Creates the registers (connected by [`Lite::build`]).
    pub fn create(w: &mut Wrapper<'_, '_>) -> Lite {
        let mut reg = |name: &str, width: u32| w.hw.reg(name, width, Some(0));
        let (ap_start, ap_done, ap_ready, auto_restart) = (
            reg("ap_start", 1),
            reg("ap_done", 1),
            reg("ap_ready", 1),
            reg("auto_restart", 1),
        );
        let (gie, ier, isr) = (reg("gie", 1), reg("ier", 2), reg("isr", 2));
        let (bvalid, rvalid) = (reg("bvalid", 1), reg("rvalid", 1));
        let rdata = w.hw.reg("rdata", 32, None);
        let words = w
            .map
            .registers
            .iter()
            .map(|r| {
                if !r.writable() {
                    return Vec::new();
                }
                (0..r.words)
                    .map(|i| {
                        let width = (r.width - 32 * i).min(32);
                        w.hw.reg(&format!("reg_{}_{i}", r.name), width, Some(0))
                    })
                    .collect()
            })
            .collect();
        Lite {
            ap_start,
            ap_done,
            ap_ready,
            auto_restart,
            gie,
            ier,
            isr,
            words,
            bvalid,
            rvalid,
            rdata,
        }
    }

    /// The words of the writable register `name` of `kind`, joined.
    fn joined(&self, w: &mut Wrapper<'_, '_>, name: &str, kind: RegisterKind) -> Option<ValueId> {
        let i = w
            .map
            .registers
            .iter()
            .position(|r| r.name == name && r.kind == kind)?;
        let mut v = self.words[i][0].q;
        for word in &self.words[i][1..] {
            v = w.hw.concat(word.q, v);
        }
        Some(v)
    }

    /// The value of the scalar argument `name`, if it is one.
    pub fn scalar_value(&self, w: &mut Wrapper<'_, '_>, name: &str) -> Option<ValueId> {
        self.joined(w, name, RegisterKind::Scalar)
    }

    /// The 64-bit base address of the memref argument `name`.
    pub fn base(&self, w: &mut Wrapper<'_, '_>, name: &str) -> ValueId {
        self.joined(w, name, RegisterKind::Base)
            .expect("every memref argument has a base register")
    }

    /// Builds the slave's channels and the registers' next values.
    pub fn build(&self, w: &mut Wrapper<'_, '_>, engine: &Engine) {
        let one = w.hw.constant(1, 1);
        let zero = w.hw.constant(0, 1);
        // Write channel.
        let awvalid = w.input(&lite("awvalid"));
        let wvalid = w.input(&lite("wvalid"));
        let bready = w.input(&lite("bready"));
        let awaddr = w.input(&lite("awaddr"));
        let wdata = w.input(&lite("wdata"));
        let wstrb = w.input(&lite("wstrb"));
        let both = w.hw.and(awvalid, wvalid);
        let no_response = w.hw.not(self.bvalid.q);
        let wr = w.hw.and(both, no_response);
        w.outputs.insert(lite("awready"), wr);
        w.outputs.insert(lite("wready"), wr);
        w.write(self.bvalid, wr, one);
        let b_taken = w.hw.and(self.bvalid.q, bready);
        w.write(self.bvalid, b_taken, zero);
        let mut lanes = Vec::new();
        for b in 0..4 {
            let strobe = w.hw.extract(wstrb, b, 1);
            let ones = w.hw.constant(0xff, 8);
            let zeros = w.hw.constant(0, 8);
            lanes.push(w.hw.mux(strobe, ones, zeros));
        }
        let mask = lanes[1..]
            .iter()
            .fold(lanes[0], |low, &high| w.hw.concat(high, low));
        let all_ones = w.hw.constant(u128::from(u32::MAX), 32);
        let keep = w.hw.comb("comb.xor", &[mask, all_ones]);
        let new_bits = w.hw.comb("comb.and", &[wdata, mask]);
        let written = |w: &mut Wrapper<'_, '_>, offset: u32| {
            let is = w.eq_const(awaddr, u128::from(offset));
            w.hw.and(wr, is)
        };
        for (r, words) in w.map.registers.clone().iter().zip(&self.words) {
            for (i, reg) in words.iter().enumerate() {
                let sel = written(w, r.offset + 4 * i as u32);
                let old = w.hw.resize(reg.q, 32, false);
                let kept = w.hw.comb("comb.and", &[old, keep]);
                let merged = w.hw.comb("comb.or", &[kept, new_bits]);
                let next = w.hw.extract(merged, 0, reg.width);
                w.write(*reg, sel, next);
            }
        }
        let low_lane = w.hw.extract(wstrb, 0, 1);
        let control_write = written(w, CONTROL);
        let control_write = w.hw.and(control_write, low_lane);
        let start_bit = w.hw.extract(wdata, bits::AP_START, 1);
        let set_start = w.hw.and(control_write, start_bit);
        w.write(self.ap_start, set_start, one);
        w.write(self.ap_start, engine.finish, self.auto_restart.q);
        let restart_bit = w.hw.extract(wdata, bits::AUTO_RESTART, 1);
        w.write(self.auto_restart, control_write, restart_bit);
        let gie_write = written(w, GIE);
        let gie_write = w.hw.and(gie_write, low_lane);
        let bit0 = w.hw.extract(wdata, 0, 1);
        w.write(self.gie, gie_write, bit0);
        let ier_write = written(w, IER);
        let ier_write = w.hw.and(ier_write, low_lane);
        let low2 = w.hw.extract(wdata, 0, 2);
        w.write(self.ier, ier_write, low2);
        let isr_write = written(w, ISR);
        let isr_write = w.hw.and(isr_write, low_lane);
        let toggled = w.hw.comb("comb.xor", &[self.isr.q, low2]);
        let toggled_set = w.hw.comb("comb.or", &[toggled, self.ier.q]);
        let set = w.hw.comb("comb.or", &[self.isr.q, self.ier.q]);
        let both_isr = w.hw.and(engine.finish, isr_write);
        w.write(self.isr, both_isr, toggled_set);
        w.write(self.isr, engine.finish, set);
        w.write(self.isr, isr_write, toggled);
        // Read channel.
        let arvalid = w.input(&lite("arvalid"));
        let rready = w.input(&lite("rready"));
        let araddr = w.input(&lite("araddr"));
        let no_data = w.hw.not(self.rvalid.q);
        let rd = w.hw.and(arvalid, no_data);
        w.outputs.insert(lite("arready"), no_data);
        w.write(self.rvalid, rd, one);
        let r_taken = w.hw.and(self.rvalid.q, rready);
        w.write(self.rvalid, r_taken, zero);
        let control = w.bits_word(&[
            (bits::AP_START, self.ap_start.q),
            (bits::AP_DONE, self.ap_done.q),
            (bits::AP_IDLE, engine.idle),
            (bits::AP_READY, self.ap_ready.q),
            (bits::AP_ERROR, engine.error.q),
            (bits::AUTO_RESTART, self.auto_restart.q),
        ]);
        let mut readable = vec![
            (CONTROL, control),
            (GIE, self.gie.q),
            (IER, self.ier.q),
            (ISR, self.isr.q),
        ];
        for (r, words) in w.map.registers.clone().iter().zip(&self.words) {
            if r.writable() {
                for (i, reg) in words.iter().enumerate() {
                    readable.push((r.offset + 4 * i as u32, reg.q));
                }
            } else {
                let value = w.core[&r.name];
                for i in 0..r.words {
                    let width = (r.width - 32 * i).min(32);
                    let part = w.hw.extract(value, 32 * i, width);
                    readable.push((r.offset + 4 * i, part));
                }
            }
        }
        let mut data = w.hw.constant(0, 32);
        for (offset, value) in readable.into_iter().rev() {
            let is = w.eq_const(araddr, u128::from(offset));
            let value = w.hw.resize(value, 32, false);
            data = w.hw.mux(is, value, data);
        }
        w.write(self.rdata, rd, data);
        let control_read = w.eq_const(araddr, u128::from(CONTROL));
        let control_read = w.hw.and(rd, control_read);
        for flag in [self.ap_done, self.ap_ready] {
            w.write(flag, engine.finish, one);
            w.write(flag, control_read, zero);
        }
        let okay = w.hw.constant(0, 2);
        w.outputs.insert(lite("rdata"), self.rdata.q);
        w.outputs.insert(lite("rvalid"), self.rvalid.q);
        w.outputs.insert(lite("rresp"), okay);
        w.outputs.insert(lite("bvalid"), self.bvalid.q);
        w.outputs.insert(lite("bresp"), okay);
        let isr0 = w.hw.extract(self.isr.q, 0, 1);
        let isr1 = w.hw.extract(self.isr.q, 1, 1);
        let pending = w.hw.any(&[isr0, isr1]);
        let interrupt = w.hw.and(self.gie.q, pending);
        w.outputs.insert(INTERRUPT.into(), interrupt);
    }
}
