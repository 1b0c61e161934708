/**
 * Docker-style image references ("busybox", "registry:5000/team/app:v1", "app@sha256:…") split into
 * repository, tag and digest, and the kubelet's rule of adding ":latest" when neither is given.
 */

const DEFAULT_DOMAIN = 'docker.io';
const LEGACY_DEFAULT_DOMAIN = 'index.docker.io';
const OFFICIAL_REPO_PREFIX = 'library';
const NAME_TOTAL_LENGTH_MAX = 255;

// The reference grammar, assembled from its pieces so each can be read on its own.
const pathComponent = '[a-z0-9]+(?:(?:[._]|__|-*)[a-z0-9]+)*';
const domainComponent = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const domain = `${domainComponent}(?:\\.${domainComponent})*(?::[0-9]+)?`;
const path = `${pathComponent}(?:/${pathComponent})*`;
const tag = '[\\w][\\w.-]{0,127}';
const digest = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}';
const REFERENCE = new RegExp(`^((?:${domain}/)?${path})(?::(${tag}))?(?:@(${digest}))?$`);
const NAME = new RegExp(`^(?:(${domain})/)?(${path})$`);
const HEX_IDENTIFIER = /^[a-f0-9]{64}$/;
/** Hex lengths of the digest algorithms go-digest knows. */
const DIGEST_HEX_LENGTH: Record<string, number> = { sha256: 64, sha384: 96, sha512: 128 };

export class InvalidImageNameError extends Error {
  constructor(readonly image: string, detail: string) {
    super(`couldn't parse image name "${image}": ${detail}`);
    this.name = 'InvalidImageNameError';
  }
}

export interface ParsedImageName {
  /** Fully qualified repository, e.g. docker.io/library/busybox. */
  repo: string;
  tag: string;
  digest: string;
}

/**
 * Splits an image reference; when it has neither tag nor digest the tag is "latest".
 * @go k8s.io/kubernetes/pkg/util/parsers.ParseImageName
 */
export function parseImageName(image: string): ParsedImageName {
  const named = parseNormalizedNamed(image);
  let { tag: t } = named;
  if (t === '' && named.digest === '') t = 'latest';
  return { repo: named.name, tag: t, digest: named.digest };
}

/**
 * Adds ":latest" to a reference that names no tag and no digest; leaves anything else alone.
 * @go k8s.io/kubernetes/pkg/kubelet/images.applyDefaultImageTag
 */
export function applyDefaultImageTag(image: string): string {
  const { tag: t, digest: d } = parseImageName(image);
  // Concatenating keeps short names short: "busybox" becomes "busybox:latest", not a docker.io path.
  if (d.length === 0 && t.length > 0 && !image.endsWith(':' + t)) return `${image}:${t}`;
  return image;
}

/**
 * Parses a reference the way `docker pull` reads it: a bare name gets the docker.io domain and the
 * library/ prefix, repository names must be lowercase, and a bare 64-hex string is refused.
 * @go github.com/docker/distribution/reference.ParseNormalizedNamed
 * Simplified: only the grammar and digest checks the kubelet's callers depend on.
 */
export function parseNormalizedNamed(s: string): { name: string; tag: string; digest: string } {
  if (HEX_IDENTIFIER.test(s)) {
    throw new InvalidImageNameError(s, `invalid repository name (${s}), cannot specify 64-byte hexadecimal strings`);
  }
  const [dom, remainder] = splitDockerDomain(s);
  const colon = remainder.indexOf(':');
  const remoteName = colon > -1 ? remainder.slice(0, colon) : remainder;
  if (remoteName.toLowerCase() !== remoteName) {
    throw new InvalidImageNameError(s, 'invalid reference format: repository name must be lowercase');
  }
  return parseReference(s, `${dom}/${remainder}`);
}

/** @go github.com/docker/distribution/reference.splitDockerDomain */
function splitDockerDomain(name: string): [string, string] {
  const i = name.indexOf('/');
  let dom: string;
  let remainder: string;
  const first = i === -1 ? '' : name.slice(0, i);
  if (i === -1 || (!/[.:]/.test(first) && first !== 'localhost')) {
    [dom, remainder] = [DEFAULT_DOMAIN, name];
  } else {
    [dom, remainder] = [first, name.slice(i + 1)];
  }
  if (dom === LEGACY_DEFAULT_DOMAIN) dom = DEFAULT_DOMAIN;
  if (dom === DEFAULT_DOMAIN && !remainder.includes('/')) remainder = `${OFFICIAL_REPO_PREFIX}/${remainder}`;
  return [dom, remainder];
}

/** @go github.com/docker/distribution/reference.Parse */
function parseReference(original: string, s: string): { name: string; tag: string; digest: string } {
  const m = REFERENCE.exec(s);
  if (m === null) {
    if (s === '') throw new InvalidImageNameError(original, 'repository name must have at least one component');
    if (REFERENCE.test(s.toLowerCase())) throw new InvalidImageNameError(original, 'repository name must be lowercase');
    throw new InvalidImageNameError(original, 'invalid reference format');
  }
  const [, name, t = '', d = ''] = m;
  if (name.length > NAME_TOTAL_LENGTH_MAX) {
    throw new InvalidImageNameError(original, `repository name must not be more than ${NAME_TOTAL_LENGTH_MAX} characters`);
  }
  if (!NAME.test(name)) throw new InvalidImageNameError(original, 'invalid reference format');
  if (d !== '') validateDigest(original, d);
  return { name, tag: t, digest: d };
}

/** @go github.com/opencontainers/go-digest.Parse */
function validateDigest(original: string, d: string): void {
  const [algorithm, hex] = d.split(':');
  const want = DIGEST_HEX_LENGTH[algorithm];
  if (want === undefined) throw new InvalidImageNameError(original, 'unsupported digest algorithm');
  if (hex.length !== want || !/^[a-f0-9]+$/.test(hex)) throw new InvalidImageNameError(original, 'invalid checksum digest format');
}
