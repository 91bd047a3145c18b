//! Lo que lee quien aprende lleva coma decimal, como el libro («135,2 ms»):
//! encontrar las cantidades con punto decimal en la salida de una orden de
//! medida (`cargo curso mantenimiento mide --rapido` las rechaza).

use std::sync::LazyLock;

use regex::Regex;

use super::valores::UNIDADES;
use crate::error::{Hallazgo, Tipo};

/// Una cantidad con punto decimal, de dos maneras:
///
/// - un número con decimales tras un punto seguido de una unidad («135.2 ms»,
///   «4.8 %», «1.82 s», «2.5x», «3.5µs»), con cualquier carácter delante que
///   no sea una letra, una cifra ni un punto;
/// - un número con decimales suelto, como los de una columna sin unidad
///   («  36.73 (36.41–37.42)»): entre espacios, paréntesis, corchetes,
///   comillas, guiones o el principio y el final de la línea.
///
/// Así no cuentan una dirección (`127.0.0.1:40000`), una versión completa
/// (`tokio 1.54.1`), un nombre como `p99.9` ni una ruta (`resultados/1.5/`).
static CANTIDAD_CON_PUNTO: LazyLock<Regex> = LazyLock::new(|| {
    let con_unidad =
        format!(r"(?:^|[^\p{{L}}\p{{N}}_.])\d+\.\d+[ \u{{a0}}\u{{202f}}]?(?:{UNIDADES})(?:$|[^\p{{L}}\p{{N}}_])");
    let suelto = r"(?:^|[\s(\[«=+\-–])\d+\.\d+(?:$|[\s)\]»,;\-–])";
    Regex::new(&format!("{con_unidad}|{suelto}")).unwrap()
});

/// Las líneas de `salida` que escriben una cantidad con punto decimal, con su
/// número (desde 1). Quien aprende lee coma decimal, como en el libro
/// («135,2 ms»): las lecciones escriben sus números con `medidas::numero`.
pub fn cantidades_con_punto(salida: &str) -> Vec<(usize, &str)> {
    salida.lines().enumerate().filter(|(_, l)| CANTIDAD_CON_PUNTO.is_match(l)).map(|(i, l)| (i + 1, l)).collect()
}

/// El problema de una orden cuya salida (`texto`, guardada en `relativa` tras
/// una primera línea con la orden) escribe cantidades con punto decimal.
pub fn punto_decimal(orden: &str, relativa: &str, texto: &str) -> Option<Hallazgo> {
    let lineas = cantidades_con_punto(texto);
    let &(primera, contenido) = lineas.first()?;
    let mas = match &lineas[1..] {
        [] => String::new(),
        resto => {
            let numeros: Vec<String> = resto.iter().take(5).map(|(n, _)| n.to_string()).collect();
            let puntos = if resto.len() > 5 { ", ..." } else { "" };
            let s = if resto.len() == 1 { "" } else { "s" };
            format!(" (y {} línea{s} más: {}{puntos})", resto.len(), numeros.join(", "))
        }
    };
    let mensaje = format!(
        "«{orden}» escribe una cantidad con punto decimal en la línea {primera} de su salida: «{}»{mas}. \
         Quien aprende lee coma decimal, como en el libro («135,2 ms»): escribe el número con \
         medidas::numero (y los enteros grandes, con medidas::entero). Su salida está en {relativa}",
        contenido.trim()
    );
    Some(Hallazgo::en_archivo(relativa, Some(primera + 1), Tipo::OrdenInvalida, mensaje))
}

#[cfg(test)]
mod pruebas {
    use super::*;

    #[test]
    fn una_cantidad_con_punto_decimal_se_ve() {
        for linea in [
            "Tiempo en lanzarlas:             135.2 ms",
            "Semillas probadas: 1000 en 10.9 ms; fallan 48 (4.8 %)",
            "Tokio, spawn sin límite   0%   37030 [31581-44806]     1.82 s",
            "pico 21 121.9 MiB",
            "  un cambio entre hilos cuesta 45.6x uno entre tareas",
            "tardó 3.5µs",
            "el bucle duró 1,250.5 ms",
            "-2.25 ms",
            "12.0 KiB por hilo",
            "1.5 veces más",
            "   genérico, async fn en el trait                   0.00   36,73 (36,41–37,42)",
            "   dyn, caja escrita a mano                         1,00   102,37 (102.03–136,50)",
            "media: 3.25",
        ] {
            assert_eq!(cantidades_con_punto(linea), vec![(1, linea)], "«{linea}» tiene una cantidad con punto");
        }
        for linea in [
            "Tiempo en lanzarlas:             135,2 ms",
            "pico 21 121,9 MiB (4,8 %)",
            "Servidor de eco en 127.0.0.1:40000",
            "compilado con tokio 1.54.1 y rustc 1.95.0",
            "CSV escrito en lessons/05-cuando-async/resultados/latencia.csv",
            "p99.9 de la latencia",
            "versión v0.7.2 ms",
            "escrita en lessons/09-tu-planificador/resultados/1.5/escalado.csv",
            "tokio 1.54.1, con la feature rt",
            "fin de la frase 12.",
            "Suma de comprobación:            0f3a.5b",
        ] {
            assert!(cantidades_con_punto(linea).is_empty(), "«{linea}» no tiene ninguna cantidad con punto");
        }
        let salida = "Cabecera\nbien: 4,0 s\nmal: 4.0 s\notra: 2.5 %\n";
        assert_eq!(cantidades_con_punto(salida), vec![(3, "mal: 4.0 s"), (4, "otra: 2.5 %")]);
    }

    #[test]
    fn el_problema_nombra_la_orden_y_la_linea() {
        let orden = "cargo run -q -p leccion-06 -- --rapido";
        let ruta = "target/mediciones/rapido/07-leccion-06.txt";
        assert!(punto_decimal(orden, ruta, "Tareas lanzadas: 1000\nTiempo total: 12,5 ms\n").is_none());
        let h = punto_decimal(orden, ruta, "Tareas lanzadas: 1000\nTiempo en lanzarlas: 5.1 ms\nTotal: 12.5 ms\n")
            .expect("dos líneas con punto decimal");
        let texto = h.to_string();
        assert!(
            texto.starts_with(&format!("«{orden}» escribe una cantidad con punto decimal en la línea 2")),
            "{texto}"
        );
        assert!(texto.contains("«Tiempo en lanzarlas: 5.1 ms»") && texto.contains("(y 1 línea más: 3)"), "{texto}");
        assert!(texto.contains("medidas::numero") && texto.contains(ruta), "{texto}");
        // En el archivo guardado, la primera línea es la orden: la línea 2 de la salida es la 3.
        assert_eq!(h.lugar, crate::error::Lugar::Archivo { ruta: ruta.into(), linea: Some(3) });
        assert_eq!(h.tipo, Tipo::OrdenInvalida);
    }
}
