package inflate

import "github.com/goblosc/blosc/internal/le"

const adlerMod = 65521

// adlerBlock is how many bytes adlerSum takes between reductions: 256
// words, so the 16-bit lane sums of one byte position cannot overflow
// (256*255 < 65536), and s2 stays far below 2^64.
const adlerBlock = 2048

// adlerSum is Adler-32 (RFC 1950, 8.2) of p, eight bytes at a time.
// For a run of m words at s1, s2, with S_k the sum of word k's bytes and
// L_j the sum of the bytes at position j of every word, s1 grows by
// the sum of S_k and s2 by 8m*s1 + 8*sum (m-k)*S_k - sum j*L_j: the
// bytewise recurrence's weights 8m-t, split into word and position.
func adlerSum(p []byte) uint32 {
	const lanes = 0x00ff00ff00ff00ff
	s1, s2 := uint64(1), uint64(0)
	for len(p) >= 8 {
		n := min(len(p), adlerBlock) &^ 7
		var a, b, even, odd uint64
		i := 0
		for ; i+16 <= n; i += 16 {
			// Two words: a grows by S0+S1, b by 2a+2*S0+S1; the lanes of
			// 2*(e0+o0)+e1+o1 are at most 1530, so four of them add up
			// within 16 bits.
			w0, w1 := le.Load64(p, i), le.Load64(p, i+8)
			e0, o0 := w0&lanes, w0>>8&lanes
			e1, o1 := w1&lanes, w1>>8&lanes
			even += e0 + e1
			odd += o0 + o1
			s0 := e0 + o0
			s1 := e1 + o1
			b += 2*a + (2*s0+s1)*0x0001000100010001>>48
			a += (s0 + s1) * 0x0001000100010001 >> 48
		}
		if i < n {
			// i+8 == n <= len(p)
			w := le.Load64(p, i)
			e, o := w&lanes, w>>8&lanes
			even += e
			odd += o
			a += (e + o) * 0x0001000100010001 >> 48
			b += a
		}
		weighted := 2*(even>>16&0xffff) + 4*(even>>32&0xffff) + 6*(even>>48) +
			(odd & 0xffff) + 3*(odd>>16&0xffff) + 5*(odd>>32&0xffff) + 7*(odd>>48)
		s2 = (s2 + uint64(n)*s1 + 8*b - weighted) % adlerMod
		s1 = (s1 + a) % adlerMod
		p = p[n:]
	}
	for _, c := range p {
		s1 += uint64(c)
		s2 += s1
	}
	return uint32(s2%adlerMod)<<16 | uint32(s1%adlerMod)
}
