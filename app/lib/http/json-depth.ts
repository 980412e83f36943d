/**
 * A nesting ceiling for untrusted JSON. `JSON.parse` copes with deep nesting, but the
 * recursive code after it (schemas, GeoJSON walkers) overflows the stack: a body nested
 * deeper than any real flight plan is refused before it is parsed. Browser-safe.
 */

/** GeoJSON (FeatureCollection → Feature → MultiPolygon → rings → points) needs about 8. */
const MAX_JSON_DEPTH = 32

export const JSON_TOO_DEEP_MESSAGE = 'The JSON is nested too deeply.'

/** True when brackets outside strings nest deeper than `maxDepth`. One pass, no recursion. */
export function jsonNestsDeeperThan(text: string, maxDepth = MAX_JSON_DEPTH): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i)
    if (inString) {
      if (ch === 0x5c /* \ */) i++
      else if (ch === 0x22 /* " */) inString = false
      continue
    }
    if (ch === 0x22) inString = true
    else if (ch === 0x5b /* [ */ || ch === 0x7b /* { */) {
      if (++depth > maxDepth) return true
    } else if (ch === 0x5d /* ] */ || ch === 0x7d /* } */) depth--
  }
  return false
}

/** JSON.parse that refuses deep nesting first; throws SyntaxError for either problem. */
export function parseJsonWithin(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  if (jsonNestsDeeperThan(text, maxDepth)) throw new SyntaxError(JSON_TOO_DEEP_MESSAGE)
  return JSON.parse(text)
}
