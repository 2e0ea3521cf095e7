// nvvm-attach-target: an #nvvm.target of the options appended to the
// targets of the gpu.modules the `module` expression matches (all by
// default), default parameters left unprinted. The output is mlir-opt-22's.
// RUN: diff <(silica opt --nvvm-attach-target %s) <(mlir-opt-22 --nvvm-attach-target %s)
// RUN: diff <(silica opt --nvvm-attach-target="chip=sm_90 module=k" %s) <(mlir-opt-22 --nvvm-attach-target="chip=sm_90 module=k" %s)
// RUN: diff <(silica opt --nvvm-attach-target="chip=sm_90 l=a.bc,b.bc" %s) <(mlir-opt-22 --nvvm-attach-target="chip=sm_90 l=a.bc,b.bc" %s)
// RUN: diff <(silica opt --nvvm-attach-target="module=^m$" %s) <(mlir-opt-22 --nvvm-attach-target="module=^m$" %s)
// RUN: diff <(silica opt --nvvm-attach-target="chip=sm_90 ptxas-cmd-options=-v" %s) <(mlir-opt-22 --nvvm-attach-target="chip=sm_90 ptxas-cmd-options=-v" %s)
// RUN: diff <(silica opt --nvvm-attach-target="chip=sm_90 O=3 features=+ptx80 fast ftz" %s) <(mlir-opt-22 --nvvm-attach-target="chip=sm_90 O=3 features=+ptx80 fast ftz" %s)
// RUN: diff <(silica opt --nvvm-attach-target="chip=sm_50 triple=nvptx64-nvidia-cuda O=2" %s) <(mlir-opt-22 --nvvm-attach-target="chip=sm_50 triple=nvptx64-nvidia-cuda O=2" %s)

gpu.module @k [#nvvm.target<chip = "sm_70">] {
}
gpu.module @m {
}
