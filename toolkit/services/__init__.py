"""The declarative AI service: a declared class becomes an assistant, with templates,
structured output, `Result` and `TokenStream`.
"""
