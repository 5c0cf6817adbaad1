"""Notebook views: one shared HTML look, static displays with text fallbacks, and widgets."""
