"""The week-3 case study: the shop and its tools, the support assistant, lenient-in/strict-out
validation, the prompt protocol, the probe, the drill and the accuracy suite.
"""
