/* Types whose names begin with "image" but are not images (the CTS's
 * kernel_image_methods passes a `global image_kernel_data *`): ordinary
 * arguments, a pointer to a struct and a struct by value. */
typedef struct {
  int width;
  int height;
} image_kernel_data;

typedef struct {
  int scale;
} image_params_t;

kernel void image_named_struct(global image_kernel_data *out, image_params_t p)
{
  size_t i = get_global_id(0);
  out[i].width = (int)i * p.scale;
  out[i].height = (int)i + p.scale;
}
