// The phrases `auto` (auto.ts) reads in a page's text: headings that open a comment thread, lines of post
// metadata and copyright, "Read more" links, the labels of lists of other pages, what a sign-up box says.

/** Headings that open a comment thread. */
export const COMMENT_HEADING =
  /^\W*(?:\d+\s+(?:comments?|responses?|replies|trackbacks?)|comments|responses|replies|reader comments|trackbacks|(?:leave|post|add|write) (?:a |your )?(?:comment|reply|response))(?:\s*\(\d+\))?(?:\s+(?:to|on|for|so far)\b.{0,80})?\W*$/i;
/**
 * Lines of post metadata that blogs print around a post ("Tags: …", "This entry was posted in …", WordPress's
 * "You can follow any responses to this entry through the RSS 2.0 feed").
 */
export const POST_METADATA =
  /^(?:tags?|tagged(?: as| with| in)?|filed (?:under|in)|categor(?:y|ies)|posted (?:by|in|on|at)|this entry was posted|you can follow any responses to this entry|written by|share this(?: article| post| story)?)\b\s*:?/i;
/**
 * A copyright line closing a post or a page: "… All rights reserved." anywhere in a short block, or a line that
 * opens with "©" (short, since a photo credit "© Agency" can open a block that goes on with the article).
 */
export const ALL_RIGHTS_RESERVED = /\ball rights reserved\b/i;
/** A blog's link to the post's own page, in the line of post metadata. */
export const PERMALINK = /^\W*perma-?link\W*$/i;
export const COPYRIGHT_OPENING = /^(?:©|\(c\) ?\d{4}|copyright\b)/i;
/** The link that ends a teaser: "Read more", "Continue reading →", "More »", "Full story". */
export const READ_MORE =
  /^\W*(?:read (?:the )?(?:more|rest|full (?:story|article|post))|continue reading|more|full (?:story|article))\b.{0,15}$/i;
/** The label of a list of other pages ("More world stories:", "Related:", "See also:"), not an announcement. */
export const MORE_STORIES =
  /^\W*(?:more|related|see also|also (?:on|in|from|read)|read (?:more|also|next)|recommended|popular|latest|top|trending|elsewhere|other)\b/i;
/** What a sign-up box says: subscribe, sign up, newsletter, inbox. */
export const SIGN_UP = /\b(?:subscribe|sign[- ]?up|newsletter|inbox|e-?mail updates)\b/i;
/** A letter or a digit: text that is a word, not a separator. */
export const WORD_CHARACTER = /[\p{L}\p{N}]/u;
