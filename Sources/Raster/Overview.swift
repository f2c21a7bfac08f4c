// Raster: paths to premultiplied pixels, in pure Swift.
//
// The stages, each in its own file:
//
//   path data text --PathDataParser--> Path (absolute move/line/quad/cubic/close, user space)
//   Path x Transform --Flattener--> [Line] (device pixels, clipped to the canvas)
//   [Line] --Rasterizer (CoverageAccumulator, FillRule)--> coverage spans (exact area, 0...255)
//   coverage spans x Paint --Kernels--> Pixmap (premultiplied RGBA8)
//
// Coordinates: user space is whatever the path data says; device space is pixels with y down and
// pixel (x, y) covering the unit square [x, x+1) x [y, y+1). Pixel values are premultiplied RGBA8
// everywhere inside; straight alpha exists only at the codec boundary (module Codecs).
