"""Oh Hell: rules engine, computer players, terminal and browser play, records, RL environment."""

__version__ = "0.1.0"
