/** @ffmpeg/core ships no typings; job-worker.ts casts the factory to the slice it uses. */
declare module "@ffmpeg/core" {
  const createFFmpegCore: (options: object) => Promise<unknown>;
  export default createFFmpegCore;
}
