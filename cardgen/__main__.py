"""python -m cardgen: the command line."""
from .cli import main

main()
