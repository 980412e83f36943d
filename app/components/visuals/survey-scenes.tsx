/**
 * Generated top-down scenes for the landing page's sample projects (no downloaded
 * imagery): an NDVI field analysis, a coastal marina survey and a dock inspection.
 * Each is a few kilobytes of SVG and stays sharp at any size. Ids are prefixed per
 * scene so several can share a page.
 */

export function AgricultureFieldScene({ className }: { className?: string }) {
  const rows = Array.from({ length: 22 }, (_, i) => i)
  // A vigour map: healthy green in the middle, stressed patches toward one corner.
  const vigour = ['#1a9641', '#52b151', '#a6d96a', '#d9ef8b', '#fee08b', '#fdae61', '#d7191c']
  return (
    <svg
      className={className}
      viewBox="0 0 400 260"
      preserveAspectRatio="xMidYMid slice"
      role="img"
      aria-label="Vegetation health map of a farm field"
    >
      <defs>
        <clipPath id="ag-field">
          <path d="M40 30 L360 14 L386 232 L22 246 Z" />
        </clipPath>
        <radialGradient id="ag-stress" cx="0.8" cy="0.25" r="0.45">
          <stop offset="0" stopColor="#d7191c" stopOpacity=".85" />
          <stop offset=".5" stopColor="#fdae61" stopOpacity=".55" />
          <stop offset="1" stopColor="#fdae61" stopOpacity="0" />
        </radialGradient>
        <radialGradient id="ag-stress2" cx="0.2" cy="0.85" r="0.3">
          <stop offset="0" stopColor="#fee08b" stopOpacity=".9" />
          <stop offset="1" stopColor="#fee08b" stopOpacity="0" />
        </radialGradient>
      </defs>
      <rect width="400" height="260" fill="#3b3220" />
      <g clipPath="url(#ag-field)">
        {rows.map((i) => (
          <rect
            key={i}
            x={i * 18 - 10}
            y="-20"
            width="18"
            height="320"
            fill={vigour[[0, 1, 0, 1, 2, 1, 0, 0, 1, 2, 1, 0, 1, 0, 0, 1, 2, 3, 2, 1, 1, 0][i]!]}
            transform="rotate(-8 200 130)"
          />
        ))}
        {rows.map((i) => (
          <path
            key={`l${i}`}
            d={`M${i * 18 - 6} -20 v320`}
            stroke="#0b3d1a"
            strokeOpacity=".35"
            strokeWidth="2"
            transform="rotate(-8 200 130)"
          />
        ))}
        <rect width="400" height="260" fill="url(#ag-stress)" />
        <rect width="400" height="260" fill="url(#ag-stress2)" />
      </g>
      <path
        d="M40 30 L360 14 L386 232 L22 246 Z"
        fill="none"
        stroke="#fff"
        strokeWidth="2.5"
        strokeDasharray="7 5"
      />
      {[
        [40, 30],
        [360, 14],
        [386, 232],
        [22, 246],
      ].map(([x, y]) => (
        <circle key={`${x}-${y}`} cx={x} cy={y} r="5" fill="#fff" stroke="#f57c0b" strokeWidth="2.5" />
      ))}
      <g transform="translate(282 196)">
        <rect width="96" height="40" rx="8" fill="#0a0f1a" fillOpacity=".8" />
        <text x="10" y="17" fill="#9eafc9" fontSize="10" fontFamily="system-ui, sans-serif">
          NDVI · 42.6 ha
        </text>
        <g transform="translate(10 24)">
          {vigour
            .slice()
            .reverse()
            .map((c, i) => (
              <rect key={c} x={i * 11} width="11" height="7" fill={c} />
            ))}
        </g>
      </g>
    </svg>
  )
}

export function CoastalMarinaScene({ className }: { className?: string }) {
  const boats: Array<[number, number, number]> = [
    [132, 86, 0],
    [132, 112, 0],
    [132, 138, 0],
    [214, 86, 0],
    [214, 112, 0],
    [214, 164, 0],
    [296, 112, 0],
    [296, 138, 0],
    [96, 198, -20],
  ]
  return (
    <svg
      className={className}
      viewBox="0 0 400 260"
      preserveAspectRatio="xMidYMid slice"
      role="img"
      aria-label="Orthomosaic of a coastal marina"
    >
      <defs>
        <linearGradient id="cm-sea" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#1f6f8b" />
          <stop offset="1" stopColor="#0d3b57" />
        </linearGradient>
        <pattern id="cm-waves" width="40" height="14" patternUnits="userSpaceOnUse">
          <path
            d="M0 7 q10 -6 20 0 t20 0"
            fill="none"
            stroke="#7cc4d8"
            strokeOpacity=".25"
            strokeWidth="1.2"
          />
        </pattern>
        <pattern id="cm-grid" width="26" height="26" patternUnits="userSpaceOnUse">
          <path d="M26 0H0v26" fill="none" stroke="#fcb84d" strokeOpacity=".28" />
        </pattern>
      </defs>
      <rect width="400" height="260" fill="url(#cm-sea)" />
      <rect width="400" height="260" fill="url(#cm-waves)" />
      {/* Shore, promenade and car park */}
      <path d="M0 0 H400 V46 C320 58 250 40 170 52 C100 62 40 50 0 60 Z" fill="#d8c9a3" />
      <path d="M0 0 H400 V30 C320 40 250 24 170 34 C100 42 40 32 0 40 Z" fill="#8a8f96" />
      {Array.from({ length: 14 }, (_, i) => (
        <rect
          key={i}
          x={20 + i * 26}
          y="8"
          width="16"
          height="9"
          rx="2"
          fill={['#e6ebf3', '#f57c0b', '#3a4e70', '#c9d3e3'][i % 4]}
        />
      ))}
      {/* Breakwater */}
      <path
        d="M380 46 C392 120 380 200 340 250"
        fill="none"
        stroke="#6b6f75"
        strokeWidth="14"
        strokeLinecap="round"
      />
      <path
        d="M380 46 C392 120 380 200 340 250"
        fill="none"
        stroke="#9ea3a9"
        strokeWidth="6"
        strokeLinecap="round"
        strokeDasharray="3 4"
      />
      {/* Jetties */}
      {[120, 202, 284].map((x) => (
        <g key={x}>
          <rect x={x} y="50" width="6" height="140" fill="#e8e2d0" />
          {[70, 96, 122, 148, 174].map((y) => (
            <rect key={y} x={x - 14} y={y} width="34" height="3" fill="#e8e2d0" />
          ))}
        </g>
      ))}
      {boats.map(([x, y, r]) => (
        <g key={`${x}-${y}`} transform={`translate(${x} ${y}) rotate(${r})`}>
          <path d="M-22 0 Q-20 -7 0 -7 L14 -7 Q22 0 14 7 L0 7 Q-20 7 -22 0 Z" fill="#f4f6fa" />
          <rect x="-10" y="-3.5" width="12" height="7" rx="2" fill="#9eafc9" />
        </g>
      ))}
      <rect
        x="40"
        y="58"
        width="300"
        height="180"
        fill="url(#cm-grid)"
        stroke="#fcb84d"
        strokeWidth="2"
        strokeDasharray="6 4"
      />
      <g transform="translate(14 214)">
        <rect width="118" height="32" rx="8" fill="#0a0f1a" fillOpacity=".8" />
        <text x="10" y="20" fill="#fcb84d" fontSize="11" fontWeight="600" fontFamily="system-ui, sans-serif">
          GSD 2.1 cm · 5.4 ha
        </text>
      </g>
    </svg>
  )
}

export function InfrastructureDockScene({ className }: { className?: string }) {
  const containerColours = ['#b43d09', '#2f3f5b', '#d95a06', '#4b638a', '#1a9641', '#c9d3e3']
  return (
    <svg
      className={className}
      viewBox="0 0 400 260"
      preserveAspectRatio="xMidYMid slice"
      role="img"
      aria-label="Inspection survey of a harbour dock"
    >
      <defs>
        <pattern
          id="id-water"
          width="30"
          height="30"
          patternUnits="userSpaceOnUse"
          patternTransform="rotate(20)"
        >
          <rect width="30" height="30" fill="#123247" />
          <path d="M0 15h30" stroke="#2b5b78" strokeOpacity=".5" />
        </pattern>
        <pattern id="id-concrete" width="20" height="20" patternUnits="userSpaceOnUse">
          <rect width="20" height="20" fill="#9aa1a9" />
          <path d="M20 0H0v20" fill="none" stroke="#868d95" />
        </pattern>
      </defs>
      <rect width="400" height="260" fill="url(#id-water)" />
      {/* Quay and finger pier */}
      <path d="M0 0 H400 V92 H250 V250 H170 V92 H0 Z" fill="url(#id-concrete)" />
      <path d="M170 92 V250 M250 92 V250 M0 92 H170 M250 92 H400" stroke="#e6ebf3" strokeWidth="3" />
      {/* Container stacks */}
      {Array.from({ length: 3 }, (_, row) =>
        Array.from({ length: 9 }, (_, col) => (
          <rect
            key={`${row}-${col}`}
            x={14 + col * 42 + (col > 3 ? 20 : 0)}
            y={12 + row * 22}
            width="36"
            height="16"
            rx="1.5"
            fill={containerColours[(row * 3 + col * 5) % containerColours.length]}
          />
        )),
      )}
      {/* Crane rails and a gantry crane */}
      <path d="M186 100 V244 M234 100 V244" stroke="#3a4e70" strokeWidth="2" />
      <g transform="translate(180 150)">
        <rect width="60" height="14" fill="#f57c0b" />
        <rect x="4" y="-6" width="8" height="26" fill="#d95a06" />
        <rect x="48" y="-6" width="8" height="26" fill="#d95a06" />
      </g>
      {/* Moored vessel */}
      <path d="M268 112 H350 Q372 140 350 168 H268 Z" fill="#2f3f5b" stroke="#c9d3e3" strokeWidth="1.5" />
      <rect x="280" y="126" width="40" height="28" rx="2" fill="#e6ebf3" />
      {/* Measurement overlay */}
      <g stroke="#fcb84d" strokeWidth="2" fill="none">
        <path d="M160 100 V244" />
        <path d="M154 100 H166 M154 244 H166" />
      </g>
      <g transform="translate(72 160)">
        <rect width="80" height="24" rx="6" fill="#0a0f1a" fillOpacity=".85" />
        <text
          x="40"
          y="16"
          textAnchor="middle"
          fill="#fcb84d"
          fontSize="11"
          fontWeight="600"
          fontFamily="system-ui, sans-serif"
        >
          186.4 m
        </text>
      </g>
      {[
        [206, 212],
        [226, 124],
      ].map(([x, y]) => (
        <g key={`${x}${y}`} transform={`translate(${x} ${y})`}>
          <circle r="9" fill="#d7191c" fillOpacity=".25" stroke="#ff6b6b" strokeWidth="2" />
          <circle r="2.5" fill="#ff6b6b" />
        </g>
      ))}
      <g transform="translate(290 214)">
        <rect width="98" height="32" rx="8" fill="#0a0f1a" fillOpacity=".8" />
        <text x="10" y="20" fill="#e6ebf3" fontSize="11" fontFamily="system-ui, sans-serif">
          <tspan fill="#ff6b6b">●</tspan> 2 defects
        </text>
      </g>
    </svg>
  )
}
