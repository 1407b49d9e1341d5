# src/hcall: (module not yet built)
