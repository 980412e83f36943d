/**
 * A node's address as stored, called and shown. The stored URL keeps what reaching the node
 * needs (a proxy's user:password@, its own ?query); NodeODM's token is kept apart and sent only
 * as `?token=`. What anyone reads (answers, audit, logs) is the redacted form, and a form sent
 * back with the redacted parts unchanged keeps the stored secrets.
 */
const REDACTED = '***'

export interface NodeAddress {
  url: string
  token: string | null
}

/** The URL to store and its token: `?token=` taken out, the #fragment (never sent) dropped. */
export function normaliseNodeUrl(input: string): NodeAddress {
  const url = new URL(input)
  const token = url.searchParams.get('token')
  url.searchParams.delete('token')
  url.hash = ''
  url.pathname = url.pathname.replace(/\/+$/, '') || '/'
  return { url: withoutRootSlash(url), token: token || null }
}

/** `http://host:3000` rather than `http://host:3000/`, as nodes were always stored. */
function withoutRootSlash(url: URL) {
  if (url.pathname !== '/') return url.href
  const slash = url.href.indexOf('/', url.protocol.length + 2)
  return url.href.slice(0, slash) + url.href.slice(slash + 1)
}

/** The URL with its user, password and query values replaced by `***`. */
export function redactNodeUrl(stored: string) {
  let url: URL
  try {
    url = new URL(stored)
  } catch {
    return REDACTED
  }
  if (url.username) url.username = REDACTED
  if (url.password) url.password = REDACTED
  for (const name of new Set(url.searchParams.keys())) url.searchParams.set(name, REDACTED)
  url.hash = ''
  return withoutRootSlash(url)
}

/** `text` with the node's URL (and its secrets) put in their redacted form, for messages. */
export function redactIn(text: string, node: NodeAddress) {
  const secrets = [node.token, ...secretsOf(node.url)].filter((s): s is string => Boolean(s && s.length >= 3))
  let out = text.replaceAll(node.url, redactNodeUrl(node.url))
  for (const secret of secrets) out = out.replaceAll(secret, REDACTED)
  return out
}

function secretsOf(stored: string) {
  try {
    const url = new URL(stored)
    const values = [...url.searchParams.values()]
    return [url.username, url.password, safeDecode(url.username), safeDecode(url.password), ...values]
  } catch {
    return []
  }
}

function safeDecode(text: string) {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/** A URL the admin sent back: `***` where the stored URL had a secret takes the stored one. */
export function restoreRedacted(submitted: string, stored: string) {
  const url = new URL(submitted)
  const before = new URL(stored)
  if (url.username === REDACTED) url.username = before.username
  if (url.password === REDACTED) url.password = before.password
  for (const [name, value] of [...url.searchParams]) {
    if (value === REDACTED && before.searchParams.has(name))
      url.searchParams.set(name, before.searchParams.get(name)!)
  }
  return url.href
}

/**
 * The URL of a route on the node: under the node URL's own path (a proxy's prefix), with its
 * own query kept, the token as `?token=`, no fragment.
 */
export function endpoint(node: NodeAddress, route: string, query: Record<string, string> = {}) {
  const url = new URL(node.url)
  url.hash = ''
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${route.replace(/^\/+/, '')}`
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v)
  if (node.token) url.searchParams.set('token', node.token)
  return url
}

/** Where a call went, for a message: origin and path only (no user, password, query or token). */
export function shownEndpoint(url: URL) {
  return `${url.origin}${url.pathname}`
}
