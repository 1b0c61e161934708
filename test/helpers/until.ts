/** Waits until `ok()` holds, for at most about two seconds; whether it holds then. */
export async function until(ok: () => boolean): Promise<boolean> {
  for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
  return ok();
}
