/**
 * Where the control API lives on the standalone server: beside `/v1`, never under it. A module of its own, so that a
 * server without `--control` routes around the control API without loading it.
 */
export const CONTROL_BASE_PATH = '/__cardrail';
