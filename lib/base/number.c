/* number.c - the profile's unsigned numbers: decimal or lowercase 0x hex,
 * at most 20 digits, checked before every multiply and add. */
#include "number.h"

#include <string.h>

static cgi_num parse_hex(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;
	if (n == 0)
		return CGI_NUM_SYNTAX;
	if (n <= 16) {
		for (i = 0; i < n; i++) {
			int h = cgi_hex_digit(s[i]);
			if (h < 0)
				return CGI_NUM_SYNTAX;
			v = (v << 4) | (uint64_t)h;
		}
		*out = v;
		return CGI_NUM_OK;
	}
	for (i = 0; i < n; i++)
		if (cgi_hex_digit(s[i]) < 0)
			return CGI_NUM_SYNTAX;
	if (n > 20)
		return CGI_NUM_DIGITS;
	for (i = 0; i < n; i++) {
		if (v > (UINT64_MAX >> 4))
			return CGI_NUM_RANGE;
		v = (v << 4) | (uint64_t)cgi_hex_digit(s[i]);
	}
	*out = v;
	return CGI_NUM_OK;
}

cgi_num cgi_parse_u64(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;
	if (n >= 2 && s[0] == '0' && s[1] == 'x')
		return parse_hex(s + 2, n - 2, out);
	if (n == 0)
		return CGI_NUM_SYNTAX;
	for (i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return CGI_NUM_SYNTAX;
	if (n > 20)
		return CGI_NUM_DIGITS;
	for (i = 0; i < n; i++) {
		unsigned d = (unsigned)(s[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return CGI_NUM_RANGE;
		v = v * 10 + d;
	}
	*out = v;
	return CGI_NUM_OK;
}
