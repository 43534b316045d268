-- Headless Neovim (0.7+) as a second real LSP client of logfilter-language-server.
-- Run: FILE=path/to/x.logfilter nvim --headless -u init.lua -i NONE -n -c 'luafile smoke.lua', where init.lua
-- starts the client for logfilter buffers (the README's snippet) and the server is on PATH.
-- Prints one line per observation and `RESULT: PASS` or `RESULT: FAIL` (exit code 1).
local file = assert(os.getenv('FILE'), 'FILE is required')
local failed = false
local function log(...) io.stdout:write(table.concat(vim.tbl_map(tostring, { ... }), ' '), '\n') end
local function fail(msg) log('FAIL: ' .. msg); failed = true end
local function finish()
  log(failed and 'RESULT: FAIL' or 'RESULT: PASS')
  vim.cmd(failed and 'cquit 1' or 'qall!')
end

-- the client comes from the user's configuration (the README's snippet, loaded with -u): opening the file
-- must detect the filetype and start the server found on PATH
vim.cmd('edit ' .. vim.fn.fnameescape(file))
local bufnr = vim.api.nvim_get_current_buf()
log('FILETYPE ' .. vim.bo[bufnr].filetype)

local function attached()
  local clients = vim.lsp.get_active_clients and vim.lsp.get_active_clients({ bufnr = bufnr }) or vim.lsp.buf_get_clients(bufnr)
  for _, c in pairs(clients) do
    if c.name == 'logfilter' then return c end
  end
end
if not vim.wait(30000, function()
  local c = attached()
  return c ~= nil and c.initialized
end, 50) then fail('no logfilter client attached and initialized'); return finish() end
local client_id = attached().id
local client = vim.lsp.get_client_by_id(client_id)
local caps = client.server_capabilities or client.resolved_capabilities
log('CAPS completion=' .. tostring(caps.completionProvider ~= nil) .. ' hover=' .. tostring(caps.hoverProvider == true))

local function code_of(d)
  return d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
end

-- diagnostics with codes and ranges (0-based line:col as the protocol has them)
if not vim.wait(60000, function() return #vim.diagnostic.get(bufnr) >= 2 end, 50) then fail('no diagnostics') end
local diags = vim.diagnostic.get(bufnr)
table.sort(diags, function(a, b) return a.lnum < b.lnum or (a.lnum == b.lnum and a.col < b.col) end)
for _, d in ipairs(diags) do
  log(string.format('DIAG %s %d:%d-%d:%d sev=%d', tostring(code_of(d)), d.lnum, d.col, d.end_lnum, d.end_col, d.severity))
end

local uri = vim.uri_from_bufnr(bufnr)
local function request(method, params)
  local resp, err = client.request_sync(method, params, 30000, bufnr)
  if err or not resp then fail(method .. ': ' .. tostring(err)); return nil end
  if resp.err then fail(method .. ': ' .. vim.inspect(resp.err)); return nil end
  return resp.result
end

-- completion after a field: the operators of its type
local comp = request('textDocument/completion', { textDocument = { uri = uri }, position = { line = 2, character = 17 } })
local items = comp and (comp.items or comp) or {}
local labels = {}
for _, it in ipairs(items) do table.insert(labels, it.label) end
log('COMPLETION ' .. table.concat(labels, ' '))

-- hover on the field
local hov = request('textDocument/hover', { textDocument = { uri = uri }, position = { line = 2, character = 30 } })
if hov and hov.range then
  log(string.format('HOVER %d:%d-%d:%d %s', hov.range.start.line, hov.range.start.character, hov.range['end'].line, hov.range['end'].character, hov.contents.kind))
else fail('no hover') end

-- quick fix for the misspelt field
local fixes = request('textDocument/codeAction', {
  textDocument = { uri = uri },
  range = { start = { line = 2, character = 0 }, ["end"] = { line = 2, character = 16 } },
  context = { diagnostics = {}, only = { 'quickfix' } },
})
for _, a in ipairs(fixes or {}) do
  local edits = a.edit and a.edit.changes and a.edit.changes[uri] or {}
  log('ACTION ' .. a.kind .. ' ' .. tostring(a.isPreferred) .. ' ' .. (edits[1] and edits[1].newText or '?'))
end

-- the custom request
local compiled = request('logfilter/compile', { textDocument = { uri = uri } })
if compiled then log('COMPILE json=' .. tostring(compiled.json) .. ' operators=' .. compiled.operators .. ' maxOperators=' .. compiled.maxOperators) end

-- an edit that clears the diagnostics
vim.api.nvim_buf_set_lines(bufnr, 2, 3, false, { 'ClientRequestHost  ==  "a" and EdgeResponseStatus >= 500' })
if not vim.wait(30000, function() return #vim.diagnostic.get(bufnr) == 0 end, 50) then fail('diagnostics not cleared after edit') end
log('AFTER EDIT ' .. #vim.diagnostic.get(bufnr) .. ' diagnostics')

-- formatting
local edits = request('textDocument/formatting', { textDocument = { uri = uri }, options = { tabSize = 2, insertSpaces = true } })
if edits then
  vim.lsp.util.apply_text_edits(edits, bufnr, 'utf-16')
  log('FORMATTED ' .. table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), ' | '))
end
compiled = request('logfilter/compile', { textDocument = { uri = uri } })
if compiled then log('COMPILE json=' .. tostring(compiled.json) .. ' operators=' .. compiled.operators .. ' maxOperators=' .. compiled.maxOperators) end

-- completion as a user asks for it: Ctrl-X Ctrl-O in Insert mode, through the omnifunc the snippet set
log('OMNIFUNC ' .. vim.bo[bufnr].omnifunc)
-- The omnifunc answers asynchronously with complete(), and only in Insert mode; headless, the test says it
-- is in Insert mode and stands in for that last call, reading what the omnifunc would show. The cursor is on a
-- placeholder `X` (Normal mode cannot stand after the line's end): the position asked for is just before it.
local function omni_complete(buf, line, text)
  vim.api.nvim_set_current_buf(buf)
  vim.api.nvim_buf_set_lines(buf, line, line + 1, false, { text .. 'X' })
  vim.api.nvim_win_set_cursor(0, { line + 1, #text })
  local shown
  local complete, mode = vim.fn.complete, vim.fn.mode
  rawset(vim.fn, 'complete', function(_, items) shown = items end)
  rawset(vim.fn, 'mode', function() return 'i' end)
  local omnifunc = vim.bo[buf].omnifunc:gsub('^v:lua%.', '')
  local fn = loadstring('return ' .. omnifunc)()
  local start = fn(1, '')
  if start ~= -2 and start ~= -3 then fn(0, '') end
  vim.wait(30000, function() return shown ~= nil end, 50)
  rawset(vim.fn, 'complete', complete)
  rawset(vim.fn, 'mode', mode)
  local words = {}
  for _, it in ipairs(shown or {}) do table.insert(words, type(it) == 'table' and it.word or it) end
  return words
end
log('OMNI ' .. table.concat(omni_complete(bufnr, 2, 'ClientRequestHost == "a" and EdgeResponseStatus '), ' '))

-- a rules file: its own filetype, the same client, diagnostics and completion
local rule_file = os.getenv('RULE_FILE')
if rule_file then
  vim.cmd('edit ' .. vim.fn.fnameescape(rule_file))
  local rbuf = vim.api.nvim_get_current_buf()
  log('RULE FILETYPE ' .. vim.bo[rbuf].filetype)
  if not vim.wait(30000, function()
    for _, c in pairs(vim.lsp.buf_get_clients(rbuf)) do
      if c.name == 'logfilter' then return true end
    end
    return false
  end, 50) then fail('no logfilter client on the .rule buffer') end
  local n = 0
  for _ in pairs(vim.lsp.get_active_clients()) do n = n + 1 end
  log('CLIENTS ' .. n)
  if not vim.wait(30000, function() return #vim.diagnostic.get(rbuf) > 0 end, 50) then fail('no rules diagnostics') end
  for _, d in ipairs(vim.diagnostic.get(rbuf)) do
    log(string.format('RULE DIAG %s %d:%d-%d:%d sev=%d', tostring(code_of(d)), d.lnum, d.col, d.end_lnum, d.end_col, d.severity))
  end
  log('RULE OMNIFUNC ' .. vim.bo[rbuf].omnifunc)
  log('RULE OMNI ' .. table.concat(omni_complete(rbuf, 1, 'and ip.src '), ' '))
end

vim.lsp.stop_client(client_id)
vim.wait(5000, function() return vim.lsp.get_client_by_id(client_id) == nil end, 50)
finish()
