"""torch's other names for one parameter, where its overloads or forms name it differently.

Note [Overload keyword names]
torch's argument parser matches a call's keywords against each overload of a function:
``torch.tensor_split(x, sections=3)`` and ``torch.tensor_split(x, indices=[1, 2])`` are two
overloads of what numtorch writes as one parameter (``indices_or_sections``), and
``torch.split(tensor=x, ...)`` and ``x.split(split_size=2)`` name split's arguments as the
function and the method do. ``overload_names`` accepts those names on the one function;
a call without keywords pays one test of ``kwargs``. The functions so marked are the
sequence splitters and entry points with torch's schema names; hot ops are not among them.
"""

from __future__ import annotations

import functools


def overload_names(**aliases: str):
    """Accept each keyword ``alias`` for the parameter it maps to."""

    def wrap(fn):
        @functools.wraps(fn)
        def named(*args, **kwargs):
            if kwargs:
                for alias, param in aliases.items():
                    if alias in kwargs:
                        if param in kwargs:
                            raise TypeError(
                                f"{fn.__name__}() got multiple values for argument '{param}'"
                            )
                        kwargs[param] = kwargs.pop(alias)
            return fn(*args, **kwargs)

        return named

    return wrap


def positional_overloads(*orders: tuple):
    """Accept keywords for a function taking its arguments positionally (``*args``) in one
    of torch's orders: the first order whose next names are exactly the keywords given
    places them (``torch.lstm(input=x, hx=..., ...)``, or its packed form's ``data=``)."""

    def wrap(fn):
        @functools.wraps(fn)
        def placed(*args, **kwargs):
            if kwargs:
                for order in orders:
                    names = order[len(args) : len(args) + len(kwargs)]
                    if set(names) == set(kwargs):
                        return fn(*args, *(kwargs[name] for name in names))
            return fn(*args, **kwargs)

        return placed

    return wrap
