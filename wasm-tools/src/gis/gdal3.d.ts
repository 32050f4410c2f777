/** gdal3.js ships no types for its Emscripten factory; init.ts narrows what it returns. */
declare module "gdal3.js/build/package/gdal3WebAssembly.js" {
  const factory: (options: object) => Promise<unknown>;
  export default factory;
}
