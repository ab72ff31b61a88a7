-- code_blocks.lua: the Pandoc pass that gives every code block a head and a copy button.
--
-- A block tangled to a file (```{.cuda file=src/reduce/x.cuh}) is headed by its file name, which
-- links to the file's Doxygen page and to the chapter's download; a named chunk (```{.cuda #id})
-- is headed by its name, noweb-style; every block, tangled or not, gets a copy button (HTML only:
-- book/book.js copies the text of the <code> element, which is exactly the code shown).
-- A chunk continued in later blocks keeps one anchor: the later blocks get `id--2`, `id--3`, ...
-- (not `id-2`: Pandoc names the lines of block `id` `id-1`, `id-2`, ...)
-- Every table is wrapped in a frame of its own (div.table-scroll, HTML only) that scrolls sideways,
-- so a table wider than a phone's screen never makes the whole page wider (book/style.css).
--
-- The apparatus folds: a block whose file is a test, a benchmark registration, a benchmark main,
-- a launcher file or a CPU reference (the file's name ends in _test, _bench, _main, _launch,
-- _launchers or _reference before its extension: book/CONVENTIONS.md) renders inside a closed
-- <details> whose one-line summary names the file, so the results are not buried under it.
-- A block may say otherwise: class .open keeps an apparatus block open, .fold folds any block.
-- Every file block gets an id (code-<file>, code-<file>-2 for its continuations), so a search hit
-- in code lands on its block.
-- Mentions of chapters and appendices in the text ("chapter 3.2", "Chapters 3.1 and 3.2",
-- "appendix A's") become links to their pages (class xref), never inside a link or a heading; a
-- possessive followed by a phrase of book/section-links.txt ("appendix A's $B_\text{read}$") links
-- to that phrase's section of the page.
-- Every figure is numbered in its chapter ("Figure 3.2.1." opens its caption) and given an id
-- (fig-1, fig-2, ... unless it has one), so prose and other pages can link to it.
--
-- Inputs from the renderer, as environment variables (strings, so nothing is re-read as Markdown):
--   BOOK_API_MAP        a file of lines "src/reduce/x.cuh<TAB>api/x_8cuh.html" (may be absent)
--   BOOK_DOWNLOAD       the chapter's entry on the downloads page, relative to the page (may be empty)
--   BOOK_CHAPTER_TITLE  the chapter's title: a first level-1 heading equal to it is dropped,
--                       because the template already prints the title.
--   BOOK_CHAPTERS       the book's chapters, one "id<TAB>page" a line (3.2<TAB>3.2-matmul.html);
--                       may be empty (no mention becomes a link)
--   BOOK_CHAPTER_ID     the chapter's id (3.2), for its figures' numbers (may be empty)
--   BOOK_SECTION_LINKS  book/section-links.txt: "chapter<TAB>phrase<TAB>anchor" lines (may be absent)
--   BOOK_SECTIONS       every chapter's section headings: "chapter<TAB>anchor<TAB>heading" lines

local is_html = FORMAT:match('html') ~= nil

local function escape_html(text)
  return (text:gsub('&', '&amp;'):gsub('<', '&lt;'):gsub('>', '&gt;'):gsub('"', '&quot;'))
end

local function read_api_map()
  local pages = {}
  local path = os.getenv('BOOK_API_MAP')
  if path == nil or path == '' then return pages end
  local file = io.open(path, 'r')
  if file == nil then return pages end
  for line in file:lines() do
    local source, page = line:match('^([^\t]+)\t([^\t]+)$')
    if source then pages[source] = page end
  end
  file:close()
  return pages
end

-- The highlighted HTML of code blocks, cached by what shapes it (BOOK_CODE_CACHE: a folder; its
-- salt BOOK_CODE_SALT names the syntax definition and Pandoc's version). Highlighting with the
-- book's CUDA definition is most of a page's Pandoc time, so a prose edit reuses every block's
-- HTML; a block not in the cache is highlighted by Pandoc as usual, between two comments that
-- book/render/pages.py reads to fill the cache and then removes. Every block is given an
-- identifier (cb<n>, n its place in the chapter) unless it has one, so its HTML does not depend
-- on the blocks Pandoc highlights beside it.
local code_cache = os.getenv('BOOK_CODE_CACHE') or ''
local code_salt = os.getenv('BOOK_CODE_SALT') or ''
local blocks_seen = 0

local function cache_key(block)
  local attrs = {}
  for k, v in pairs(block.attributes) do table.insert(attrs, k .. '=' .. v) end
  table.sort(attrs)
  return pandoc.utils.sha1(table.concat({ code_salt, block.identifier, table.concat(block.classes, ' '),
    table.concat(attrs, '\n'), block.text }, '\0'))
end

-- The block itself, as cached HTML or between the cache's markers for Pandoc to highlight.
local function highlighted(block)
  if code_cache == '' then return { block } end
  local key = cache_key(block)
  local file = io.open(code_cache .. '/' .. key .. '.html', 'r')
  if file then
    local text = file:read('a')
    file:close()
    return { pandoc.RawBlock('html', text) }
  end
  return { pandoc.RawBlock('html', '<!--code-cache:' .. key .. '-->'), block,
           pandoc.RawBlock('html', '<!--/code-cache-->') }
end

local api_pages = read_api_map()
local download = os.getenv('BOOK_DOWNLOAD') or ''
local chapter_title = os.getenv('BOOK_CHAPTER_TITLE') or ''
local times_seen = {}          -- file or chunk name -> blocks seen so far

local chapter_pages = {}       -- chapter id -> its page
local chapter_ids = {}         -- the ids, longest first (so 3.2 is tried before 3)
for line in (os.getenv('BOOK_CHAPTERS') or ''):gmatch('[^\n]+') do
  local id, page = line:match('^([^\t]+)\t([^\t]+)$')
  if id then chapter_pages[id] = page; table.insert(chapter_ids, id) end
end
table.sort(chapter_ids, function(a, b) return #a > #b or (#a == #b and a < b) end)

local section_links = {}       -- chapter id -> phrase -> anchor
do
  local path = os.getenv('BOOK_SECTION_LINKS') or ''
  local file = path ~= '' and io.open(path, 'r') or nil
  if file then
    for line in file:lines() do
      local id, phrase, anchor = line:match('^([^#\t][^\t]*)\t([^\t]+)\t([^\t]+)$')
      if id then
        section_links[id] = section_links[id] or {}
        section_links[id][phrase] = anchor
      end
    end
    file:close()
  end
end

-- Every chapter's section headings (BOOK_SECTIONS: "chapter<TAB>anchor<TAB>heading" lines, from
-- book/render/pages.py): a possessive mention that section-links.txt does not list ("chapter
-- 4.3's traffic argument") links to the one section of that chapter whose heading shares the most
-- telling words with the phrase after it ("What the traffic measured"); none, or a tie: the page.
local chapter_sections = {}    -- chapter id -> { { anchor, words } }
local GENERIC = {}
for w in ([[chapter chapters lesson lessons appendix kernel kernels rung rungs model models measured
  measure numbers number result results test tests time times same first second third last one two three
  each every its from with this that which what when where there their than then also into over under
  before after about code book here does only both
  stream harness attention]]):gmatch('%S+') do GENERIC[w] = true end
-- (stream, harness, attention: what a whole chapter is about, never one section's subject)

local function telling(word)
  word = word:lower():gsub('[’\'].*$', ''):gsub('[^%w_.]', '')
  word = word:gsub('%.$', '')
  if #word > 4 and word:sub(-1) == 's' and word:sub(-2) ~= 'ss' then word = word:sub(1, -2) end
  if #word < 4 or GENERIC[word] then return nil end
  return word
end

do
  for line in (os.getenv('BOOK_SECTIONS') or ''):gmatch('[^\n]+') do
    local id, anchor, heading = line:match('^([^\t]+)\t([^\t]+)\t(.*)$')
    if id then
      local words = {}
      for w in heading:gmatch('%S+') do
        local t = telling(w)
        if t then words[t] = true end
      end
      chapter_sections[id] = chapter_sections[id] or {}
      table.insert(chapter_sections[id], { anchor = anchor, words = words })
    end
  end
end

-- The anchor of the section of chapter id whose heading best matches the (up to five) words after
-- inlines[k], or nil where no heading shares a telling word or two share as many.
local function heading_anchor(id, inlines, k)
  local sections = chapter_sections[id]
  if sections == nil then return nil end
  local words = {}
  while #words < 5 do
    local gap, el = inlines[k], inlines[k + 1]
    if gap == nil or (gap.t ~= 'Space' and gap.t ~= 'SoftBreak') or el == nil then break end
    local text = el.t == 'Str' and el.text or el.t == 'Code' and el.text or nil
    if text == nil then break end
    local t = telling(text)
    if t then table.insert(words, t) end
    if el.t == 'Str' and text:match('[,;:.!?)]$') then break end       -- the phrase ends at punctuation
    k = k + 2
  end
  local best, best_score, tie = nil, 0, false
  for _, section in ipairs(sections) do
    local score = 0
    for _, w in ipairs(words) do if section.words[w] then score = score + 1 end end
    if score > best_score then best, best_score, tie = section.anchor, score, false
    elseif score > 0 and score == best_score then tie = true end
  end
  if tie then return nil end
  return best
end

-- The kind of apparatus a file is, from its name (nil: the code the chapter is about).
local APPARATUS = { test = 'Tests', bench = 'Benchmark registration', main = 'Benchmark main',
                    launch = 'Launchers', launchers = 'Launchers', reference = 'CPU reference' }
local function apparatus_kind(file)
  local base = file:match('([^/]+)$') or file
  local stem = base:match('^(.-)%.[^.]+$') or base
  local suffix = stem:match('_([%a]+)$')
  return suffix and APPARATUS[suffix] or nil
end

local function slug(text)
  return (text:gsub('[^%w%-%._]', '-'))
end

-- The head's name: the file (linked to its API page) or the chunk, and whether it continues one.
local function head_name(block)
  local file = block.attributes['file']
  local key = file or (block.identifier ~= '' and ('#' .. block.identifier)) or nil
  if key == nil then return nil end
  times_seen[key] = (times_seen[key] or 0) + 1
  local continued = times_seen[key] > 1
  if file == nil then
    local name = block.identifier
    if continued then block.identifier = name .. '--' .. times_seen[key] end
    local sign = continued and ' +≡' or ' ≡'
    return '<span class="code-name chunk">⟨' .. escape_html(name) .. '⟩' .. sign .. '</span>'
  end
  local label = escape_html(file) .. (continued and ' <span class="cont">(continued)</span>' or '')
  local page = api_pages[file]
  if is_html and page then
    label = '<a href="' .. escape_html(page) .. '" title="This file in the API reference">' .. label .. '</a>'
  end
  return '<span class="code-name file">' .. label .. '</span>'
end

function CodeBlock(block)
  local name = head_name(block)
  local file = block.attributes['file']
  if not is_html then
    if name == nil then return nil end
    return { pandoc.RawBlock('html', '<div class="code-head">' .. name .. '</div>'), block }
  end
  blocks_seen = blocks_seen + 1
  if block.identifier == '' then block.identifier = 'cb' .. blocks_seen end
  local head = {}
  if name then table.insert(head, name) end
  if file and download ~= '' then
    table.insert(head, '<a class="code-download" href="' .. escape_html(download)
      .. '" title="This chapter\'s code, with a CMakeLists.txt">chapter code</a>')
  end
  table.insert(head, '<button type="button" class="copy" aria-label="Copy this code">Copy</button>')
  local id = ''
  if file then
    local n = times_seen[file]
    id = ' id="code-' .. escape_html(slug(file)) .. (n > 1 and ('-' .. n) or '') .. '"'
  end
  local open = '<div class="code"' .. id .. (file and (' data-file="' .. escape_html(file) .. '"') or '')
    .. '>\n<div class="code-head">' .. table.concat(head, ' ') .. '</div>'
  local kind = file and apparatus_kind(file) or nil
  if block.classes:includes('fold') and kind == nil then kind = 'Code' end
  if block.classes:includes('open') then kind = nil end
  if kind then
    local _, newlines = block.text:gsub('\n', '')
    local summary = '<details class="apparatus"><summary><span class="kind">' .. kind .. ':</span> '
      .. '<code>' .. escape_html(file or block.identifier) .. '</code>'
      .. (times_seen[file or ('#' .. block.identifier)] > 1 and ' (continued)' or '')
      .. ' <span class="lines">' .. (newlines + 1) .. ' lines</span></summary>\n'
    open = summary .. open
    local out = { pandoc.RawBlock('html', open) }
    for _, b in ipairs(highlighted(block)) do table.insert(out, b) end
    table.insert(out, pandoc.RawBlock('html', '</div>\n</details>'))
    return out
  end
  local out = { pandoc.RawBlock('html', open) }
  for _, b in ipairs(highlighted(block)) do table.insert(out, b) end
  table.insert(out, pandoc.RawBlock('html', '</div>'))
  return out
end

-- ---- mentions of chapters and appendices become links
local KEYWORDS = { chapter = false, chapters = true, appendix = false, appendices = true,
                   lesson = false, lessons = true }

-- The known id that opens a word ("3.2", "3.2’s", "A,"), and the rest of the word; or nil.
local function split_id(text)
  for _, id in ipairs(chapter_ids) do
    if text:sub(1, #id) == id then
      local rest = text:sub(#id + 1)
      local after = rest:sub(1, 1)
      if rest == '' or not (after:match('[%w_]') or (after == '.' and rest:sub(2, 2):match('%d'))) then
        return id, rest
      end
    end
  end
  return nil
end

-- A mention's link: to the section anchor, or to the page's top (anchor nil, or TOP where
-- section-links.txt says the words name the chapter as a whole). A possessive whose words name
-- no section that is known (named, unresolved) keeps them in data-names, and check-rendered fails
-- on it: its section belongs in section-links.txt.
local TOP = '-'
local function xref(id, content, anchor, named)
  local attrs = named and { { 'data-names', named } } or {}
  local href = chapter_pages[id] .. ((anchor and anchor ~= TOP) and ('#' .. anchor) or '')
  return pandoc.Link(content, href, '', pandoc.Attr('', { 'xref' }, attrs))
end

-- A word as section-links.txt writes it: text without its closing punctuation, code in
-- backquotes, a formula as its TeX in dollars; nil for anything else.
local function phrase_word(el)
  if el == nil then return nil end
  if el.t == 'Str' then return (el.text:gsub('[.,;:!?)]+$', '')) end
  if el.t == 'Code' then return '`' .. el.text .. '`' end
  if el.t == 'Math' and el.mathtype == 'InlineMath' then return '$' .. el.text .. '$' end
  return nil
end

-- The words after a possessive, as section-links.txt would write them (up to three, to the first
-- punctuation), for a message that asks for them there.
local function phrase_after(inlines, k)
  local words = {}
  while #words < 3 do
    local gap, word = inlines[k], phrase_word(inlines[k + 1])
    if gap == nil or (gap.t ~= 'Space' and gap.t ~= 'SoftBreak') or word == nil or word == '' then break end
    table.insert(words, word)
    if inlines[k + 1].t == 'Str' and inlines[k + 1].text ~= word then break end
    k = k + 2
  end
  return table.concat(words, ' ')
end

-- The anchor of the section that the phrase opening inlines[k] names in chapter id (the longest
-- phrase of up to three words that section-links.txt lists), or nil.
local function section_anchor(id, inlines, k)
  local phrases = section_links[id] or {}
  local words, best = {}, nil
  while #words < 3 do
    local gap, word = inlines[k], phrase_word(inlines[k + 1])
    if gap == nil or (gap.t ~= 'Space' and gap.t ~= 'SoftBreak') or word == nil or word == '' then break end
    table.insert(words, word)
    best = phrases[table.concat(words, ' ')] or best
    if inlines[k + 1].t == 'Str' and inlines[k + 1].text ~= word then break end   -- punctuation ends it
    k = k + 2
  end
  return best
end

function Inlines(inlines)
  if next(chapter_pages) == nil then return nil end   -- the pages and the EPUB (book/render/epub.py) alike
  local out = pandoc.List()
  local i = 1
  while i <= #inlines do
    local el = inlines[i]
    local word = el.t == 'Str' and el.text:lower() or nil
    local plural = word and KEYWORDS[word]
    local gap, target = inlines[i + 1], inlines[i + 2]
    local id, rest
    if plural ~= nil and gap and (gap.t == 'Space' or gap.t == 'SoftBreak') and target and target.t == 'Str' then
      id, rest = split_id(target.text)
    end
    if id then
      local possessive = rest == '’s' or rest == "'s"
      local anchor = possessive and (section_anchor(id, inlines, i + 3) or heading_anchor(id, inlines, i + 3)) or nil
      local named = possessive and anchor == nil and phrase_after(inlines, i + 3) or nil
      out:insert(xref(id, { el, pandoc.Space(), pandoc.Str(id) }, anchor, named))
      if rest ~= '' then out:insert(pandoc.Str(rest)) end
      i = i + 3
      -- "chapters 3.1, 3.2 and 3.3": the ids that follow a plural link too
      while plural and (rest == '' or rest == ',') do
        local j, more = i, nil
        while inlines[j] and (inlines[j].t == 'Space' or inlines[j].t == 'SoftBreak'
            or (inlines[j].t == 'Str' and (inlines[j].text == 'and' or inlines[j].text == 'or'))) do
          j = j + 1
        end
        if inlines[j] and inlines[j].t == 'Str' then more, rest = split_id(inlines[j].text) end
        if not more or j == i then break end
        for k = i, j - 1 do out:insert(inlines[k]) end
        out:insert(xref(more, { pandoc.Str(more) }))
        if rest ~= '' then out:insert(pandoc.Str(rest)) end
        i = j + 1
      end
    else
      out:insert(el)
      i = i + 1
    end
  end
  return out
end

-- ---- figures: numbered in the chapter, each with an id
local chapter_id = os.getenv('BOOK_CHAPTER_ID') or ''
local figures_seen = 0

function Para(para)
  local image = para.content[1]
  if not is_html or #para.content ~= 1 or image.t ~= 'Image' or not image.title:match('^fig:') then return nil end
  figures_seen = figures_seen + 1
  if image.identifier == '' then image.identifier = 'fig-' .. figures_seen end
  local number = 'Figure ' .. (chapter_id ~= '' and (chapter_id .. '.') or '') .. figures_seen .. '.'
  local caption = pandoc.List({ pandoc.Span({ pandoc.Str(number) }, pandoc.Attr('', { 'figure-number' })), pandoc.Space() })
  caption:extend(image.caption)
  image.caption = caption
  -- With no alt of its own, Pandoc copies the caption into alt and hides the caption from screen
  -- readers (aria-hidden), links and all, which then take the keyboard's focus unannounced (axe's
  -- aria-hidden-focus). So the alt is written here: what the figure shows, the caption's first
  -- sentence ("Time against grid size for blocks of fixed work, one panel for ...", cut at 200
  -- characters), after the number; the caption stays read, and its links reachable.
  if not image.attributes.alt then
    local shows = pandoc.utils.stringify(image.caption):gsub('^' .. number:gsub('%.', '%%.') .. '%s*', '')
    shows = shows:match('^(.-)%.%s') or shows:gsub('%.$', '')
    if #shows > 200 then shows = shows:sub(1, 200):gsub('%s+%S*$', '') .. ' …' end
    image.attributes.alt = shows ~= '' and (number .. ' ' .. shows) or number
  end
  return para
end

-- A mention inside a link or a heading stays text (no link in a link; headings feed the contents).
local function unlink(el)
  return el:walk({ Link = function(link)
    if link.classes:includes('xref') then return link.content end
  end })
end


-- A table in a frame that scrolls sideways on its own (the page itself never does); the frame
-- takes the keyboard's focus (a named region), so a reader without a mouse can scroll it too.
function Table(table)
  if not is_html then return nil end
  return pandoc.Div({ table }, pandoc.Attr('', { 'table-scroll' },
    { { 'tabindex', '0' }, { 'role', 'region' },   -- pairs, in this order (a Lua table has none)
      { 'aria-label', 'Table (scrolls sideways where it is wider than the text)' } }))
end

-- The dated box keeps its symbols open and folds its results: every table of the box after the
-- symbols' (its first header cell "symbol") goes into a closed <details> whose summary counts its
-- rows and names its columns; on a phone a long symbol table shows its first rows and a button for
-- the rest. So a phone reader reaches the chapter's first section sooner (web review #2: it began
-- four to nine screens down). HTML only: the EPUB shows every table whole.
local function table_of(block)
  if block.t == 'Table' then return block end
  if block.t == 'Div' and block.classes:includes('table-scroll') and block.content[1]
      and block.content[1].t == 'Table' then
    return block.content[1]
  end
  return nil
end

local function header_cells(tbl)
  local row = tbl.head and tbl.head.rows and tbl.head.rows[1]
  local out = {}
  for _, cell in ipairs(row and row.cells or {}) do table.insert(out, pandoc.utils.stringify(cell.contents)) end
  return out
end

local SYMBOLS_SHOWN = 3        -- the box's symbols a phone shows before "Show all" (book/style.css)

-- A paragraph of the box that says the run's toolkit and clocks (the weaver's facts line: "CUDA
-- runtime 13.0 · driver ... · SM clock ..."), not a warning (a stale or failed-tests note).
local function facts_paragraph(block)
  if block.t ~= 'Para' then return false end
  local warning = false
  block:walk({ Span = function(span) if span.classes:includes('stale-note') then warning = true end end })
  return not warning
end

function Div(div)
  if not is_html or not div.classes:includes('hwbox') then return nil end
  local blocks = pandoc.List()
  local results = false        -- the last block is the results' </details>: the facts lines go in before it
  for _, block in ipairs(div.content) do
    local tbl = table_of(block)
    local heads = tbl and header_cells(tbl) or {}
    local rows = 0             -- a result's rows: beside the reference GPU, a row each, the name once
    for _, body in ipairs(tbl and tbl.bodies or {}) do
      for _, row in ipairs(body.body) do
        local first = row.cells and row.cells[1]
        if first == nil or pandoc.utils.stringify(first.contents) ~= '' then rows = rows + 1 end
      end
    end
    if tbl and heads[1] == 'symbol' and block.t == 'Div' and rows > SYMBOLS_SHOWN + 1 then
      -- on a phone the first SYMBOLS_SHOWN symbols show, the rest under a button (book/style.css,
      -- book/book.js; without scripts every symbol shows)
      block.classes:extend({ 'box-symbols', 'many' })
      blocks:insert(block)
      blocks:insert(pandoc.RawBlock('html', string.format('<button type="button" class="symbols-more" '
        .. 'aria-expanded="false">Show all %d symbols</button>', rows)))
    elseif tbl and heads[1] ~= 'symbol' then
      -- one line on a phone: the count (its columns show once it is opened)
      local summary = string.format('All %d result%s measured, and the run', rows, rows == 1 and '' or 's')
      blocks:insert(pandoc.RawBlock('html', '<details class="box-results"><summary>' .. escape_html(summary)
        .. '</summary>'))
      blocks:insert(block)
      blocks:insert(pandoc.RawBlock('html', '</details>'))
      results = true
    elseif results and facts_paragraph(block) then
      -- the toolkit and clocks of the run, folded with its results (on a phone they took five lines
      -- before the chapter's first section): before the </details>
      blocks:insert(#blocks, block)
    elseif results == false and tbl == nil and facts_paragraph(block) and #blocks > 0
        and pandoc.utils.stringify(block):match('^[%w ]*:? ?CUDA runtime') then
      -- a box with no results: its toolkit and clocks fold on their own
      blocks:insert(pandoc.RawBlock('html', '<details class="box-results"><summary>The run: toolkit and clocks'
        .. '</summary>'))
      blocks:insert(block)
      blocks:insert(pandoc.RawBlock('html', '</details>'))
      results = true
    else
      blocks:insert(block)
      results = false
    end
  end
  div.content = blocks
  return div
end

-- The template prints the chapter's title; drop the chapter's own copy of it if it opens the text.
-- Pandoc's smart typography curls the heading's apostrophes and quotes (Hopper's becomes
-- Hopper’s) but not the metadata's title, so both are compared with straight ones.
local function straight(s)
  return (s:gsub('\u{2019}', "'"):gsub('\u{2018}', "'"):gsub('\u{201C}', '"'):gsub('\u{201D}', '"'))
end

-- The glance: a paragraph opening "**Results at a glance.**" right after the dated box, and what
-- follows it up to the first section (its table, the claims on it), is folded under a one-line
-- summary on a phone, so the chapter's first section starts within two screens of its top (web
-- review #2); a wider screen shows it open, its summary hidden (book/style.css, book/book.js).
-- HTML only.
local GLANCE = 'at a glance'

local function glance_lead(block)
  local lead = block and block.t == 'Para' and block.content[1]
  if not lead or lead.t ~= 'Strong' then return nil end
  local text = pandoc.utils.stringify(lead):gsub('[.:]%s*$', '')
  return text:lower():sub(-#GLANCE) == GLANCE and text or nil
end

local function fold_glance(blocks)
  for i, block in ipairs(blocks) do
    if block.t == 'Div' and block.classes:includes('hwbox') then
      local summary = glance_lead(blocks[i + 1])
      if summary == nil then return end
      local last = i + 1
      while blocks[last + 1] and not (blocks[last + 1].t == 'Header' and blocks[last + 1].level <= 2) do
        last = last + 1
      end
      blocks:insert(last + 1, pandoc.RawBlock('html', '</details>'))
      blocks:insert(i + 1, pandoc.RawBlock('html', '<details class="glance"><summary>' .. escape_html(summary)
        .. '</summary>'))
      return
    end
    if block.t == 'Header' and block.level <= 2 then return end
  end
end

function Pandoc(doc)
  local first = doc.blocks[1]
  if first and first.t == 'Header' and first.level == 1 and chapter_title ~= ''
      and straight(pandoc.utils.stringify(first)) == straight(chapter_title) then
    doc.blocks:remove(1)
  end
  if is_html then fold_glance(doc.blocks) end
  return doc
end

return { { CodeBlock = CodeBlock, Table = Table, Inlines = Inlines, Para = Para, Pandoc = Pandoc },
         { Div = Div },
         { Link = function(link) link.content = unlink(pandoc.Plain(link.content)).content; return link end,
           Header = unlink } }
