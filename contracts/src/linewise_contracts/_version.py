"""The contract version, which is this distribution's version."""

# Bump rules: a new optional field or entry kind is a minor bump; removing or
# changing the meaning of anything a parser may emit is a major bump.
__version__ = "1.10.0"
CONTRACT_VERSION = __version__
