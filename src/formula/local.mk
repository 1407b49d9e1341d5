# src/formula: (module not yet built)
