/* Each -D of a multi-word options line reaches the compiler. */
kernel void options_words(global int *out) { out[0] = A * 100 + B * 10 + C; }
