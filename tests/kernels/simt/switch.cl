/* A switch with fallthrough and default; built without jump tables it is
 * a tree of conditional branches, taken differently by each lane. */
kernel void switch_case(global const uint *in, global uint *out)
{
  uint i = get_global_id(0);
  uint x = in[i] * 0x9E3779B1u >> 16;
  uint r = 0;
  switch (x % 9u) {
  case 0:
    r = x;
    break;
  case 1:
    r = 11u;
    /* fall through */
  case 2:
    r += x * 2u;
    break;
  case 3:
  case 4:
    r = x ^ 0xffu;
    break;
  case 7:
    r = x >> 2;
    break;
  default:
    r = 1000u + x % 9u;
    break;
  }
  out[i] = r;
}
