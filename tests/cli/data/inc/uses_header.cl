#include "scale.h"
kernel void scaled(global int *p) { p[get_global_id(0)] *= SCALE; }
