"""cuarray.exceptions: NumPy's exception and warning classes themselves (``numpy.exceptions``), so
``except numpy.exceptions.AxisError`` catches cuarray's errors and the other way round."""
from numpy.exceptions import (AxisError, ComplexWarning, DTypePromotionError, ModuleDeprecationWarning,
                              RankWarning, TooHardError, VisibleDeprecationWarning)

__all__ = ["AxisError", "ComplexWarning", "DTypePromotionError", "ModuleDeprecationWarning", "RankWarning",
           "TooHardError", "VisibleDeprecationWarning"]
