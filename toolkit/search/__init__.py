"""Tool search: one tool that finds the others, with keyword and vector strategies, embedding
models, and the course's 329-tool catalogue.
"""
