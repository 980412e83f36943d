/**
 * A generated aerial scene (no downloaded imagery): farmland parcels, a river, a road
 * and a drone's survey grid, drawn in SVG so it is crisp at any size and tiny on the wire.
 */
export function AerialHero({ className }: { className?: string }) {
  return (
    <svg className={className} viewBox="0 0 1200 800" preserveAspectRatio="xMidYMid slice" aria-hidden="true">
      <defs>
        <linearGradient id="ah-sky" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#1c2639" />
          <stop offset="1" stopColor="#0a0f1a" />
        </linearGradient>
        <pattern
          id="ah-rows"
          width="14"
          height="14"
          patternUnits="userSpaceOnUse"
          patternTransform="rotate(28)"
        >
          <rect width="14" height="14" fill="#2f4a2a" />
          <rect width="6" height="14" fill="#3d5e33" />
        </pattern>
        <pattern
          id="ah-rows2"
          width="10"
          height="10"
          patternUnits="userSpaceOnUse"
          patternTransform="rotate(-12)"
        >
          <rect width="10" height="10" fill="#6b5a2e" />
          <rect width="4" height="10" fill="#7d6a37" />
        </pattern>
        <pattern
          id="ah-vine"
          width="8"
          height="8"
          patternUnits="userSpaceOnUse"
          patternTransform="rotate(64)"
        >
          <rect width="8" height="8" fill="#40552c" />
          <rect width="2" height="8" fill="#55703a" />
        </pattern>
        <pattern id="ah-grid" width="40" height="40" patternUnits="userSpaceOnUse">
          <path d="M40 0H0v40" fill="none" stroke="#fb9f24" strokeOpacity=".35" strokeWidth="1" />
        </pattern>
      </defs>
      <rect width="1200" height="800" fill="url(#ah-sky)" />
      <path d="M0 120 L420 60 L520 330 L80 420 Z" fill="url(#ah-rows)" />
      <path d="M440 40 L900 0 L980 250 L540 320 Z" fill="url(#ah-rows2)" />
      <path d="M920 0 L1200 0 L1200 330 L1000 260 Z" fill="url(#ah-vine)" />
      <path d="M70 440 L530 345 L620 640 L120 760 Z" fill="url(#ah-vine)" />
      <path d="M560 340 L1000 275 L1080 560 L650 640 Z" fill="url(#ah-rows)" />
      <path d="M1010 280 L1200 350 L1200 800 L1100 580 Z" fill="url(#ah-rows2)" />
      <path d="M0 780 C200 700 380 760 620 660 S980 620 1200 700 L1200 800 L0 800 Z" fill="#1d3b4f" />
      <path
        d="M0 790 C220 712 390 772 630 672 S985 632 1200 712"
        fill="none"
        stroke="#3f7ea3"
        strokeWidth="6"
        strokeOpacity=".6"
      />
      <path d="M0 430 L1200 250" stroke="#c9b68a" strokeWidth="9" strokeOpacity=".7" />
      <path d="M530 0 L650 800" stroke="#c9b68a" strokeWidth="6" strokeOpacity=".55" />
      <circle cx="300" cy="220" r="46" fill="#26401f" />
      <circle cx="820" cy="460" r="30" fill="#26401f" />
      <g>
        <path
          d="M600 330 L870 290 L930 500 L660 560 Z"
          fill="url(#ah-grid)"
          stroke="#fcb84d"
          strokeWidth="3"
        />
        <path d="M600 330 L870 290 L930 500 L660 560 Z" fill="#fb9f24" fillOpacity=".12" />
        {[
          [600, 330],
          [870, 290],
          [930, 500],
          [660, 560],
        ].map(([x, y]) => (
          <circle key={`${x}-${y}`} cx={x} cy={y} r="7" fill="#fff" stroke="#f57c0b" strokeWidth="3" />
        ))}
      </g>
      <g transform="translate(760 400)">
        <circle r="34" fill="none" stroke="#fff" strokeOpacity=".25" strokeWidth="2" />
        <path d="M-22 -22 L22 22 M22 -22 L-22 22" stroke="#e6ebf3" strokeWidth="5" strokeLinecap="round" />
        {[
          [-22, -22],
          [22, -22],
          [22, 22],
          [-22, 22],
        ].map(([x, y]) => (
          <circle key={`${x}${y}`} cx={x} cy={y} r="10" fill="none" stroke="#e6ebf3" strokeWidth="3" />
        ))}
        <rect x="-9" y="-9" width="18" height="18" rx="4" fill="#fb9f24" />
      </g>
    </svg>
  )
}
