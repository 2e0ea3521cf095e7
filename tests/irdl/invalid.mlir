// The irdl dialect's own verifier and parser errors, against mlir-opt-22
// (messages, and how they are shown).
// RUN: diff <(silica opt --split-input-file --verify-diagnostics %s 2>&1) <(mlir-opt-22 --split-input-file --verify-diagnostics %s 2>&1)

irdl.dialect @bad {
  irdl.operation @op {
    %0 = irdl.any
    // expected-error@+1 {{expected valid keyword}}
    irdl.operands(%0)
  }
}

// -----

irdl.dialect @bad {
  irdl.operation @op {
    %0 = irdl.any
    // expected-error@+1 {{name of operand #1 should not contain uppercase letters}}
    irdl.operands(a: %0, Big: %0)
  }
}

// -----

irdl.dialect @bad {
  irdl.type @t {
    %0 = irdl.any
    // expected-error@+1 {{name of parameter #0 should not contain leading or double underscores}}
    irdl.parameters(_p: %0)
  }
}

// -----

irdl.dialect @bad {
  irdl.operation @op {
    %0 = irdl.any
    // expected-error@+1 {{name of result #2 is a duplicate of the name of result #1}}
    irdl.results(a: %0, b: %0, b: %0)
  }
}

// -----

irdl.dialect @bad {
  // expected-error@+1 {{contains a value named 'x' for both its results and operands}}
  irdl.operation @op {
    %0 = irdl.any
    irdl.results(x: %0)
    irdl.operands(x: %0)
  }
}

// -----

// expected-error@+1 {{'irdl.dialect' op invalid dialect name}}
irdl.dialect @"bad-name" {
}

// -----

// expected-error@+1 {{name of dialect must contain only lowercase letters, digits and underscores}}
irdl.dialect @bad$name {
}

// -----

irdl.dialect @bad {
  // expected-error@+1 {{name of type should not contain uppercase letters}}
  irdl.type @T
}

// -----

irdl.dialect @bad {
  irdl.type @t {
    // expected-error@+1 {{the base type or attribute name should start with '!' or '#'}}
    %0 = irdl.base "builtin.integer"
    irdl.parameters(p: %0)
  }
}

// -----

irdl.dialect @bad {
  irdl.type @t {
    // expected-error@+1 {{symbol '@bad::@missing' not found}}
    %0 = irdl.parametric @bad::@missing<>
    irdl.parameters(p: %0)
  }
}

// -----

irdl.dialect @bad {
  irdl.operation @o {
  }
  irdl.type @t {
    // expected-error@+1 {{symbol '@bad::@o' does not refer to a type or attribute definition (refers to 'irdl.operation')}}
    %0 = irdl.base @bad::@o
    irdl.parameters(p: %0)
  }
}

// -----

irdl.dialect @bad {
  irdl.operation @o {
    // expected-error@+1 {{'irdl.region' op the number of blocks is expected to be >= 1 but got 0}}
    %0 = irdl.region with size 0
    irdl.regions(r: %0)
  }
}

// -----

irdl.dialect @bad {
  irdl.operation @o {
    %0 = irdl.is i32
    // expected-error@+1 {{'irdl.results' op the number of results and their variadicities must be the same, but got 1 and 0 respectively}}
    "irdl.results"(%0) <{names = ["r"], variadicity = #irdl<variadicity_array[]>}> : (!irdl.attribute) -> ()
  }
}

// -----

irdl.dialect @bad {
  irdl.operation @o {
    %0 = irdl.is i32
    // expected-error@+1 {{'irdl.attributes' op the number of attribute names and their constraints must be the same but got 0 and 1 respectively}}
    "irdl.attributes"(%0) <{attributeValueNames = []}> : (!irdl.attribute) -> ()
  }
}

// -----

irdl.dialect @bad {
  irdl.operation @o {
    // expected-error@+1 {{'irdl.any_of' op expected 1 or more operands, but found 0}}
    %0 = irdl.any_of()
    irdl.results(r: %0)
  }
}

// -----

irdl.dialect @bad {
  irdl.operation @o {
    %0 = irdl.region
    // expected-note@-1 {{prior use here}}
    // expected-error@+1 {{use of value '%0' expects different type than prior uses: '!irdl.attribute' vs '!irdl.region'}}
    irdl.results(r: %0)
  }
}
