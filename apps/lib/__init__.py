"""The ground floor (the `hc/lib` model): plumbing every app may use and that knows no app.

Nothing here imports another package of the project (tests/site/test_architecture.py).
"""
