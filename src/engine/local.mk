# src/engine: (module not yet built)
