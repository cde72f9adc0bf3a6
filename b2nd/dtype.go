package b2nd

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/goblosc/blosc"
)

// DTypeItemsize returns the size in bytes of an element of a NumPy type
// string: a byte order ('<', '>', '|' or '='), a kind and a size, as
// dtype.str writes them ("<f8", "|S5", "<U3" of 12 bytes, "<M8[ns]",
// "|V16"), or one of the one-character codes of NumPy's sctypes ("?",
// "b", "i", "f", "d", ...). Structured dtypes (a descr list) have no size
// here: give the item size alongside.
func DTypeItemsize(dtype string) (int, error) {
	s := dtype
	if s != "" && strings.ContainsRune("<>|=", rune(s[0])) {
		s = s[1:]
	}
	if i := strings.IndexByte(s, '['); i >= 0 && strings.HasSuffix(s, "]") {
		s = s[:i] // a datetime or timedelta unit
	}
	if len(s) == 1 {
		switch s[0] {
		case '?', 'b', 'B':
			return 1, nil
		case 'h', 'H', 'e':
			return 2, nil
		case 'i', 'I', 'f':
			return 4, nil
		case 'l', 'L', 'q', 'Q', 'd', 'F', 'M', 'm':
			// NumPy's 'l' is the C long: 8 bytes where python-blosc2 runs
			// outside Windows.
			return 8, nil
		case 'g', 'D':
			return 16, nil
		case 'G':
			return 32, nil
		}
	}
	if len(s) >= 2 {
		n, err := strconv.Atoi(s[1:])
		if err == nil && n > 0 {
			switch s[0] {
			case 'b', 'i', 'u', 'f', 'c', 'S', 'a', 'V', 'M', 'm':
				return n, nil
			case 'U':
				if n <= 1<<28 {
					return 4 * n, nil
				}
			}
		}
	}
	return 0, fmt.Errorf("%w: no item size known for dtype %q", blosc.ErrInvalidOptions, dtype)
}
