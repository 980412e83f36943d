/** The photogrammetry engine a node reports, named once: "ODM 3.5.6". */

/** What is stored from a node's `/info`: NodeODM says `odm`; "?" (its test mode) is no version. */
export function engineLabel(engine?: string, version?: string) {
  const name = engine?.trim() && /^odm$/i.test(engine.trim()) ? 'ODM' : engine?.trim()
  const known = version?.trim() && version.trim() !== '?' ? version.trim() : ''
  return [name, known].filter(Boolean).join(' ').slice(0, 100) || null
}

/** A stored engine as people read it (rows stored before read "odm 3.5.6"). */
export function engineText(stored: string) {
  return stored.replace(/^odm\b/i, 'ODM')
}
