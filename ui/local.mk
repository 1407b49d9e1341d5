# ui: (module not yet built)
