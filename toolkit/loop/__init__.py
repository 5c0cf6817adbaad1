"""The round-trip loop: tool sources, the loop itself, its records, the return rules, sagas, and
the provider wrappers (filter, rename, always visible).
"""
