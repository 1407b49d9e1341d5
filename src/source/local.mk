# src/source: (module not yet built)
