// Per-topic word lists of the topical test web. The topic's own name comes first and is drawn most often (as
// "tennis" is on tennis pages); no word belongs to two topics or to the shared filler (testweb's VOCABULARY),
// so a page's topic is only visible statistically, through the mix of its words.

export const TOPIC_VOCABULARIES: Readonly<Record<string, readonly string[]>> = {
  tennis: words(
    'tennis racket wimbledon serve volley backhand forehand deuce umpire baseline tiebreak grandslam ' +
      'lob smash doubles singles clay lawn netcord ace rally seeded qualifier topspin',
  ),
  cooking: words(
    'cooking recipe oven simmer saucepan butter flour braise roast seasoning garlic onion pastry dough ' +
      'skillet broth whisk marinade chef spice vinegar caramel knead ladle',
  ),
  astronomy: words(
    'astronomy telescope galaxy nebula comet planet orbit asteroid supernova eclipse quasar stellar ' +
      'observatory cosmic meteor pulsar constellation lunar solar redshift parsec zenith equinox dwarf',
  ),
  gardening: words(
    'gardening compost seedling pruning mulch perennial shrub hedge fertilizer trowel greenhouse bulb ' +
      'weeding soil hoe rake cutting graft annual herbaceous loam topsoil sprinkler allotment',
  ),
  chess: words(
    'chess bishop rook pawn checkmate gambit castling knight endgame sacrifice grandmaster stalemate ' +
      'sicilian fianchetto zugzwang blunder tempo queenside kingside passant elo tournament rating',
  ),
  sailing: words(
    'sailing yacht keel tack jib mainsail rudder regatta mast hull starboard port dinghy spinnaker ' +
      'halyard sheet boom helm knot mooring gybe bowline leeward windward',
  ),
  geology: words(
    'geology basalt granite sediment tectonic fossil magma mineral quartz erosion glacier strata ' +
      'volcano limestone crust mantle fault shale igneous metamorphic outcrop lava quarry',
  ),
  jazz: words(
    'jazz saxophone trumpet improvisation bebop swing chord trombone syncopation bassist drummer ' +
      'ensemble quartet blues riff scat ballad standard soloist combo bandleader cornet gig',
  ),
};

export const DEFAULT_TOPICS: readonly string[] = [
  'tennis',
  'cooking',
  'astronomy',
  'gardening',
  'chess',
  'sailing',
];

function words(text: string): readonly string[] {
  return text.split(/\s+/).filter(Boolean);
}
