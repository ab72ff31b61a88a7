-- code_blocks.lua: the Pandoc pass that gives every code block a head and a copy button.
--
-- A block tangled to a file (```{.cuda file=src/reduce/x.cuh}) is headed by its file name, which
-- links to the file's Doxygen page and to the chapter's download; a named chunk (```{.cuda #id})
-- is headed by its name, noweb-style; every block, tangled or not, gets a copy button (HTML only:
-- book/book.js copies the text of the <code> element, which is exactly the code shown).
-- A chunk continued in later blocks keeps one anchor: the later blocks get `id-2`, `id-3`, ...
-- Every table is wrapped in a frame of its own (div.table-scroll, HTML only) that scrolls sideways,
-- so a table wider than a phone's screen never makes the whole page wider (book/style.css).
--
-- Inputs from the renderer, as environment variables (strings, so nothing is re-read as Markdown):
--   BOOK_API_MAP        a file of lines "src/reduce/x.cuh<TAB>api/x_8cuh.html" (may be absent)
--   BOOK_DOWNLOAD       the chapter's download, relative to the page (may be empty)
--   BOOK_CHAPTER_TITLE  the chapter's title: a first level-1 heading equal to it is dropped,
--                       because the template already prints the title.

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

local api_pages = read_api_map()
local download = os.getenv('BOOK_DOWNLOAD') or ''
local chapter_title = os.getenv('BOOK_CHAPTER_TITLE') or ''
local times_seen = {}          -- file or chunk name -> blocks seen so far

-- The head's name: the file (linked to its API page) or the chunk, and whether it continues one.
local function head_name(block)
  local file = block.attributes['file']
  local key = file or (block.identifier ~= '' and ('#' .. block.identifier)) or nil
  if key == nil then return nil end
  times_seen[key] = (times_seen[key] or 0) + 1
  local continued = times_seen[key] > 1
  if file == nil then
    local name = block.identifier
    if continued then block.identifier = name .. '-' .. times_seen[key] end
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
  local head = {}
  if name then table.insert(head, name) end
  if file and download ~= '' then
    table.insert(head, '<a class="code-download" href="' .. escape_html(download)
      .. '" title="This chapter\'s code, with a CMakeLists.txt">chapter code</a>')
  end
  table.insert(head, '<button type="button" class="copy" aria-label="Copy this code">Copy</button>')
  local open = '<div class="code"' .. (file and (' data-file="' .. escape_html(file) .. '"') or '')
    .. '>\n<div class="code-head">' .. table.concat(head, ' ') .. '</div>'
  return { pandoc.RawBlock('html', open), block, pandoc.RawBlock('html', '</div>') }
end

-- A table in a frame that scrolls sideways on its own (the page itself never does).
function Table(table)
  if not is_html then return nil end
  return pandoc.Div({ table }, pandoc.Attr('', { 'table-scroll' }))
end

-- The template prints the chapter's title; drop the chapter's own copy of it if it opens the text.
function Pandoc(doc)
  local first = doc.blocks[1]
  if first and first.t == 'Header' and first.level == 1 and chapter_title ~= ''
      and pandoc.utils.stringify(first) == chapter_title then
    doc.blocks:remove(1)
  end
  return doc
end

return { { CodeBlock = CodeBlock, Table = Table, Pandoc = Pandoc } }
