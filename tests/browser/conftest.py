"""Browser fixtures live in tests/support/browser.py (shared with other apps' browser tests)."""
