import sys

from .campaign import main

if __name__ == "__main__":
    sys.exit(main())
