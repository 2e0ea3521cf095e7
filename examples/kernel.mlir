// A small example: generic operations of an (unregistered) dialect with a
// multi-block region, forward references and affine-map attributes.
#tile = affine_map<(d0, d1) -> (d0 floordiv 4, d1 mod 4)>
"demo.kernel"() ({
^bb0(%n: index, %buf: memref<16x16xf32>):
  %c = "demo.const"() {value = 0.5 : f32} : () -> f32
  "demo.loop"(%n)[^body, ^exit] {map = #tile} : (index) -> ()
^body:
  "demo.store"(%c, %buf) : (f32, memref<16x16xf32>) -> ()
  "demo.loop"(%n)[^body, ^exit] : (index) -> ()
^exit:
  "demo.return"() : () -> ()
}) {sym_name = "kernel"} : () -> ()
