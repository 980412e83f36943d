/**
 * The ODM options the simulator lists at `GET /options`, in NodeODM's shape (every value a
 * string, `domain` a description string or the list of an enum's values), and NodeODM's
 * filtering of a task's options against them: unknown names are dropped without a word,
 * a value of the wrong type or out of range fails the whole request with NodeODM's JSON
 * list of `{ name, error }`.
 */

export interface OdmOption {
  name: string
  type: 'bool' | 'int' | 'float' | 'string' | 'enum'
  value: string
  domain: string | string[]
  help: string
}

export type OptionValue = string | number | boolean

const QUALITY = ['ultra', 'high', 'medium', 'low', 'lowest']

const bool = (name: string, help: string): OdmOption => ({
  name,
  type: 'bool',
  value: 'false',
  domain: '',
  help,
})

/** A realistic subset of ODM 3.5's options (the names, types and ranges ODM declares). */
export const ODM_OPTIONS: readonly OdmOption[] = [
  {
    name: 'end-with',
    type: 'enum',
    value: 'odm_postprocess',
    domain: [
      'dataset',
      'opensfm',
      'openmvs',
      'odm_meshing',
      'mvs_texturing',
      'odm_georeferencing',
      'odm_dem',
      'odm_orthophoto',
      'odm_report',
      'odm_postprocess',
    ],
    help: 'End processing at this stage.',
  },
  {
    name: 'min-num-features',
    type: 'int',
    value: '10000',
    domain: 'integer',
    help: 'Minimum number of features to extract per image.',
  },
  {
    name: 'feature-type',
    type: 'enum',
    value: 'dspsift',
    domain: ['akaze', 'dspsift', 'hahog', 'orb', 'sift'],
    help: 'Keypoint and descriptor algorithm.',
  },
  {
    name: 'feature-quality',
    type: 'enum',
    value: 'high',
    domain: QUALITY,
    help: 'Image scale used to extract features.',
  },
  {
    name: 'matcher-type',
    type: 'enum',
    value: 'flann',
    domain: ['bow', 'bruteforce', 'flann'],
    help: 'Matcher algorithm.',
  },
  {
    name: 'matcher-neighbors',
    type: 'int',
    value: '0',
    domain: 'positive integer',
    help: 'Match only this many nearest images by GPS (0: all).',
  },
  {
    name: 'camera-lens',
    type: 'enum',
    value: 'auto',
    domain: ['auto', 'perspective', 'brown', 'fisheye', 'spherical', 'equirectangular', 'dual'],
    help: 'Camera projection model.',
  },
  {
    name: 'max-concurrency',
    type: 'int',
    value: '4',
    domain: 'positive integer',
    help: 'Maximum number of processes to use.',
  },
  {
    name: 'sfm-algorithm',
    type: 'enum',
    value: 'incremental',
    domain: ['incremental', 'triangulation', 'planar'],
    help: 'Structure from motion algorithm.',
  },
  bool('sky-removal', 'Mask the sky in images before reconstruction.'),
  bool('use-3dmesh', 'Use a full 3D mesh for the orthophoto instead of a 2.5D mesh.'),
  bool('skip-3dmodel', 'Skip the full 3D model.'),
  bool('skip-report', 'Skip the PDF report.'),
  bool('skip-orthophoto', 'Skip the orthophoto.'),
  bool('ignore-gsd', 'Ignore the ground sampling distance when choosing resolutions.'),
  {
    name: 'mesh-size',
    type: 'int',
    value: '200000',
    domain: 'positive integer',
    help: 'Maximum number of vertices of the mesh.',
  },
  {
    name: 'mesh-octree-depth',
    type: 'int',
    value: '11',
    domain: 'integer: 1 <= x <= 14',
    help: 'Octree depth of the mesh reconstruction.',
  },
  bool(
    'fast-orthophoto',
    'Skip dense reconstruction and 3D model; make an orthophoto from the sparse reconstruction.',
  ),
  {
    name: 'crop',
    type: 'float',
    value: '3',
    domain: 'positive float',
    help: 'Crop outputs by this many metres inside the dataset edge (0: no crop).',
  },
  {
    name: 'split',
    type: 'int',
    value: '999999',
    domain: 'positive integer',
    help: 'Average number of images per submodel (split-merge; ClusterODM spreads the submodels over its nodes).',
  },
  {
    name: 'split-overlap',
    type: 'float',
    value: '150',
    domain: 'positive integer',
    help: 'Radius of the overlap between submodels in meters.',
  },
  {
    name: 'boundary',
    type: 'string',
    value: '',
    domain: 'json',
    help: 'GeoJSON polygon (EPSG:4326) limiting the processing area.',
  },
  bool('auto-boundary', 'Compute a boundary from the camera positions.'),
  { name: 'pc-quality', type: 'enum', value: 'medium', domain: QUALITY, help: 'Point cloud quality.' },
  bool('pc-classify', 'Classify the point cloud into ground and non-ground.'),
  bool('pc-csv', 'Export the point cloud as CSV.'),
  bool('pc-las', 'Export the point cloud as LAS.'),
  bool('pc-ept', 'Export the point cloud as Entwine Point Tiles.'),
  bool('pc-copc', 'Export the point cloud as Cloud Optimized Point Cloud.'),
  {
    name: 'pc-filter',
    type: 'float',
    value: '5',
    domain: 'positive float',
    help: 'Standard deviations for the outlier filter (0: off).',
  },
  {
    name: 'pc-sample',
    type: 'float',
    value: '0',
    domain: 'positive float',
    help: 'Minimum distance between points in metres (0: no sampling).',
  },
  bool('gltf', 'Make a glTF binary (GLB) textured model.'),
  bool('dsm', 'Make a digital surface model.'),
  bool('dtm', 'Make a digital terrain model.'),
  {
    name: 'dem-resolution',
    type: 'float',
    value: '5',
    domain: 'float',
    help: 'DSM/DTM resolution in cm/pixel.',
  },
  {
    name: 'dem-gapfill-steps',
    type: 'int',
    value: '3',
    domain: 'positive integer',
    help: 'Steps to fill gaps in the DEM.',
  },
  {
    name: 'orthophoto-resolution',
    type: 'float',
    value: '5',
    domain: 'float > 0.0',
    help: 'Orthophoto resolution in cm/pixel.',
  },
  bool('orthophoto-png', 'Also write the orthophoto as PNG.'),
  bool('orthophoto-kmz', 'Also write the orthophoto as KMZ.'),
  {
    name: 'orthophoto-compression',
    type: 'enum',
    value: 'DEFLATE',
    domain: ['JPEG', 'LZW', 'PACKBITS', 'DEFLATE', 'LZMA', 'NONE'],
    help: 'Orthophoto GeoTIFF compression.',
  },
  bool('orthophoto-cutline', 'Make a polygon cutline around the orthophoto.'),
  bool('tiles', 'Make static tiles for the orthophoto and DEMs.'),
  bool('3d-tiles', 'Make OGC 3D Tiles outputs.'),
  bool('cog', 'Write Cloud Optimized GeoTIFFs.'),
  bool('build-overviews', 'Build overviews in the orthophoto.'),
  {
    name: 'gps-accuracy',
    type: 'float',
    value: '3',
    domain: 'positive float',
    help: 'GPS accuracy of the camera positions in metres.',
  },
  bool('use-exif', 'Use the EXIF positions for georeferencing even with a GCP file.'),
  bool('optimize-disk-space', 'Delete intermediate files as processing goes.'),
]

const DOMAIN_CHECKS: Array<{
  regex: RegExp
  valid: (m: RegExpMatchArray, value: number | string | boolean) => boolean
}> = [
  {
    regex: /^(positive |negative )?(integer|float)$/,
    valid: (m, value) => {
      const n = value as number
      if (m[1] === 'positive ') return n >= 0
      if (m[1] === 'negative ') return n <= 0
      return m[2] === 'integer' ? Number.isInteger(n) : Number.isFinite(n)
    },
  },
  { regex: /^percent$/, valid: (_m, value) => (value as number) >= 0 && (value as number) <= 100 },
  {
    regex: /^(float|integer): ([-+.\d]+) <= x <= ([-+.\d]+)$/,
    valid: (m, value) => (value as number) >= Number(m[2]) && (value as number) <= Number(m[3]),
  },
  {
    regex: /^(float|integer) (>=|>|<|<=) ([-+.\d]+)$/,
    valid: (m, value) => {
      const n = value as number
      const bound = Number(m[3])
      return m[2] === '>=' ? n >= bound : m[2] === '>' ? n > bound : m[2] === '<=' ? n <= bound : n < bound
    },
  },
  {
    regex: /^json$/,
    valid: (_m, value) => {
      if (typeof value !== 'string') return false
      try {
        JSON.parse(value)
        return true
      } catch {
        return false
      }
    },
  },
  { regex: /^(string|path)$/, valid: () => true },
]

function convert(type: OdmOption['type'], value: unknown): OptionValue {
  switch (type) {
    case 'float':
      return Number.parseFloat(String(value))
    case 'int':
      return Number.parseInt(String(value), 10)
    case 'bool':
      if (value === 'true' || value === '1' || value === true) return true
      if (value === 'false' || value === '0' || value === false) return false
      throw new Error(`Cannot convert ${String(value)} to boolean`)
    default:
      return value as string
  }
}

function checkDomain(domain: OdmOption['domain'], value: OptionValue) {
  if (Array.isArray(domain)) {
    if (!domain.includes(value as string)) throw new Error(`Invalid value ${String(value)} (not in enum)`)
    return
  }
  for (const check of DOMAIN_CHECKS) {
    const m = domain.match(check.regex)
    if (m) {
      if (!check.valid(m, value)) throw new Error(`Invalid value ${String(value)} (out of range)`)
      return
    }
  }
  throw new Error(`Domain value cannot be handled: '${domain}' : '${String(value)}'`)
}

/** A task's options as NodeODM keeps them: `{ name, value }` with typed values, in ODM's order. */
export type TaskOption = { name: string; value: OptionValue }

/**
 * The options a client sent (a JSON string or an array of `{ name, value }`) filtered as
 * NodeODM does; throws an Error whose message is NodeODM's JSON list of problems.
 */
export function filterOptions(raw: unknown): TaskOption[] {
  let options = raw
  if (typeof options === 'string') options = JSON.parse(options) as unknown
  if (!Array.isArray(options)) options = []
  const given = options as Array<{ name?: unknown; value?: unknown } | null>
  const result: TaskOption[] = []
  const errors: Array<{ name: string; error: string }> = []
  for (const option of ODM_OPTIONS) {
    const chosen = given.find((o) => o && typeof o === 'object' && o.name === option.name)
    if (!chosen) continue
    try {
      const value = convert(option.type, chosen.value)
      // A bool's domain is empty: nothing to check (as NodeODM).
      if (option.domain.length) checkDomain(option.domain, value)
      result.push({ name: option.name, value })
    } catch (error) {
      errors.push({ name: option.name, error: (error as Error).message })
    }
  }
  if (errors.length) throw new Error(JSON.stringify(errors))
  return result
}

/** NodeODM adds these to every task unless `skipPostProcessing` (when ODM knows them). */
export const POST_PROCESSING_OPTIONS = ['pc-ept', 'cog', 'gltf'] as const

export function optionValue(options: readonly TaskOption[], name: string): OptionValue | undefined {
  return options.find((o) => o.name === name)?.value
}

export function optionIsOn(options: readonly TaskOption[], name: string) {
  return optionValue(options, name) === true
}
