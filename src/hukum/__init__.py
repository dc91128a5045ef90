"""hukum: the trick-taking card games of India — Mindi and Dashavatara Ganjifa."""

__version__ = "0.1.0"
