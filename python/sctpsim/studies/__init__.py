"""Studies that run many simulations and compare them with references (each a module with a
``main``; see its docstring)."""
