# src/catalog: (module not yet built)
