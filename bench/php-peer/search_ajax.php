<?php
// The old site's search as PHP sites do it: LIKE on plans and active units per request,
// plans first, then units by name; the app's JSON shape ({tipo, id, nome, cidade?}), 20 at most.
require __DIR__ . '/db.php';
header('Content-Type: application/json; charset=utf-8');
$q = trim((string) ($_GET['q'] ?? ''));
$chars = preg_match_all('/./us', $q); // characters, not bytes (mbstring is not in a default install)
if ($chars < 2 || $chars > 100) {
    echo '[]';
    exit;
}
$like = '%' . str_replace(['\\', '%', '_'], ['\\\\', '\\%', '\\_'], $q) . '%';
$out = [];
$plans = db()->prepare("SELECT id, nome FROM planos WHERE ativo = 1 AND nome LIKE ? ESCAPE '\\' ORDER BY nome LIMIT 20");
$plans->execute([$like]);
foreach ($plans as $p) {
    $out[] = ['tipo' => 'plano', 'id' => (int) $p['id'], 'nome' => $p['nome']];
}
$units = db()->prepare(
    "SELECT id, nome, cidade FROM unidades WHERE ativo = 1
       AND (nome LIKE :q ESCAPE '\\' OR bairro LIKE :q ESCAPE '\\' OR cidade LIKE :q ESCAPE '\\')
     ORDER BY nome LIMIT 20"
);
$units->execute([':q' => $like]);
foreach ($units as $u) {
    $out[] = ['tipo' => 'unidade', 'id' => (int) $u['id'], 'nome' => $u['nome'], 'cidade' => $u['cidade']];
}
echo json_encode(array_slice($out, 0, 20), JSON_UNESCAPED_UNICODE);
