//! Las gráficas del libro: cada `src/bin/grafica-*.rs` de una lección las
//! dibuja a partir de los resultados guardados en `lessons/NN-tema/resultados/`.

use std::path::{Path, PathBuf};

use walkdir::WalkDir;

use crate::error::Error;
use crate::modelo::{Curso, Grupo};
use crate::procesos::Proceso;
use crate::procesos::cargo::Programas;

/// Los programas que dibujan las gráficas: cada `src/bin/grafica-*.rs` de
/// una lección, como `(paquete, programa)`.
pub fn programas_de_graficas(curso: &Curso) -> Vec<(String, String)> {
    let mut v = Vec::new();
    for capitulo in &curso.capitulos {
        let bins = curso.ruta(capitulo.carpeta(Grupo::Lecciones)).join("src/bin");
        let mut nombres: Vec<String> = WalkDir::new(&bins)
            .min_depth(1)
            .max_depth(1)
            .into_iter()
            .flatten()
            .filter_map(|e| e.file_name().to_str().map(str::to_string))
            .filter_map(|n| n.strip_suffix(".rs").filter(|n| n.starts_with("grafica-")).map(str::to_string))
            .collect();
        nombres.sort();
        v.extend(nombres.into_iter().map(|n| (capitulo.paquete(Grupo::Lecciones), n)));
    }
    v
}

/// Vuelve a dibujar cada gráfica del libro a partir de los resultados
/// guardados en las lecciones (`lessons/NN-tema/resultados/`). Cada una va a
/// `book/graficas/NOMBRE.svg` (el programa es `grafica-NOMBRE`), o a
/// `destino/NOMBRE.svg` si se da otra carpeta. Devuelve las rutas escritas.
pub fn dibujar(curso: &Curso, destino: Option<&Path>, mut progreso: impl FnMut(&str)) -> Result<Vec<PathBuf>, Error> {
    let carpeta = destino.map_or_else(|| curso.ruta("book/graficas"), Path::to_path_buf);
    let mut hechas = Vec::new();
    // Compilados como los compila `cargo test`: tras él, nada que compilar.
    let compilados = Programas::compilar(&curso.raiz)?;
    for (paquete, programa) in programas_de_graficas(curso) {
        let svg = carpeta.join(format!("{}.svg", programa.trim_start_matches("grafica-")));
        progreso(&format!("cargo run -p {paquete} --bin {programa}"));
        let exe = compilados
            .ejecutable(&paquete, Some(&programa))
            .ok_or_else(|| Error::mensaje(format!("{paquete} no tiene el programa {programa}")))?;
        Proceso::programa(exe).args(["--svg"]).arg(&svg).en(&curso.raiz).salida_con_exito()?;
        hechas.push(svg);
    }
    Ok(hechas)
}
